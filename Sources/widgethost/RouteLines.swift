import DeepLinks
import Foundation
import JSON
import WidgetHost

/// `widgethost route -`: routes every line of standard input (a log of tapped URLs, say), one
/// output line per input line, so the two line up.
///
/// Each line is routed as the bytes it is (`RouteTable.withMatch(utf8:)`): no `String` is made of
/// a URL, and a line that is not UTF-8 fails with the reason instead of being repaired. A trailing
/// `\r` is dropped. Text output is `route<TAB>name=value<TAB>...` (the path parameters in pattern
/// order, with `%`, tab, CR and LF in values written as `%25`, `%09`, `%0D`, `%0A`) or
/// `-<TAB>reason`; `--json` writes one JSON object a line instead (`JSONTextWriter`, members sorted by
/// key as `route --json` writes them). A summary goes to standard
/// error. Exit status: 0 when every line matched, 1 when some did not, 2 when standard input
/// could not be read.
enum RouteLines {
    /// A line longer than this is not kept: it fails as too long a URL (the table's own limit is lower).
    static let longestLine = 1 << 20

    static func run(table: RouteTable, context: TapContext, json: Bool) -> Int32 {
        var output = OutputBuffer()
        var (lines, matched) = (0, 0)
        let readError = LineReader.forEachLine(of: STDIN_FILENO, longest: longestLine) { line, length in
            lines += 1
            let routed: Result<Void, RoutingFailure>
            if let line {
                routed = table.withMatch(utf8: line, context: context) { match in
                    json ? writeJSON(match, line: lines, to: &output) : writeText(match, to: &output)
                }
            } else {
                routed = .failure(.invalidURL(.urlTooLong(length: length, limit: table.canonicalizer.maxURLLength)))
            }
            switch routed {
            case .success: matched += 1
            case let .failure(failure):
                if json {
                    var writer = JSONTextWriter()
                    writer.beginObject()
                    writer.key("line")
                    writer.int(lines)
                    writer.key("matched")
                    writer.bool(false)
                    writer.member("reason", failure.description)
                    writer.endObject()
                    output.appendLine(writer.bytes)
                } else {
                    output.append("-\t\(failure.description)\n")
                }
            }
        }
        output.flush()
        if let readError {
            FileHandle.standardError.write(Data("widgethost: cannot read standard input: \(readError)\n".utf8))
            return 2
        }
        FileHandle.standardError.write(Data("routed \(matched) of \(lines) line\(lines == 1 ? "" : "s")\n".utf8))
        return matched == lines ? 0 : 1
    }

    private static func writeText(_ match: borrowing RouteMatchView, to output: inout OutputBuffer) {
        output.append(match.routeName)
        for parameter in match.pathParameters {
            output.append("\t")
            output.append(parameter.name)
            output.append("=")
            output.appendEscapedForLine(parameter.value)
        }
        output.append("\n")
    }

    private static func writeJSON(_ match: borrowing RouteMatchView, line: Int, to output: inout OutputBuffer) {
        var writer = JSONTextWriter()
        writer.beginObject()
        writer.member("canonicalUrl", match.canonicalURL.string)
        writer.key("line")
        writer.int(line)
        writer.key("matched")
        writer.bool(true)
        writer.key("parameters")
        writer.object(match.parameters)
        writer.key("query")
        writer.beginArray()
        for item in match.queryItems {
            writer.beginObject()
            writer.member("name", item.name)
            writer.member("value", item.value)
            writer.endObject()
        }
        writer.endArray()
        writer.member("route", match.routeName)
        writer.member("target", match.target)
        writer.endObject()
        output.appendLine(writer.bytes)
    }
}

/// Reads a file descriptor line by line into one reused buffer.
enum LineReader {
    /// Calls `body` with each line of `descriptor` (without its `\n` and a `\r` before it), the last
    /// one also when it has no `\n`; a line longer than `longest` bytes is given as nil with its length.
    /// - Returns: nil at the end of the input, or the error that stopped reading.
    static func forEachLine(of descriptor: Int32, longest: Int,
                            _ body: (_ line: UnsafeBufferPointer<UInt8>?, _ length: Int) -> Void) -> String? {
        var buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 16)
        defer { buffer.deallocate() }
        var filled = 0
        var skipped = -1  // ≥ 0 while skipping the rest of an over-long line: the bytes skipped so far
        while true {
            if filled == buffer.count {
                if buffer.count >= longest {
                    skipped = max(skipped, 0) + filled
                    filled = 0
                } else {
                    let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: min(buffer.count * 2, longest))
                    _ = larger.initialize(fromContentsOf: buffer)
                    buffer.deallocate()
                    buffer = larger
                }
            }
            let count = read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            if count < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            guard let base = buffer.baseAddress else { return nil }
            var start = 0
            var index = filled
            filled += count
            if count == 0 {
                // The end: a last line without `\n`.
                if filled > 0 || skipped >= 0 { emit(base, 0, filled, skipped: skipped, body) }
                return nil
            }
            while let newline = memchr(base + index, Int32(UInt8(ascii: "\n")), filled - index) {
                let end = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                emit(base, start, end, skipped: skipped, body)
                skipped = -1
                start = end + 1
                index = start
            }
            // Keep the unfinished line at the start of the buffer.
            if start > 0 {
                memmove(base, base + start, filled - start)
                filled -= start
            }
        }
    }

    private static func emit(_ base: UnsafeMutablePointer<UInt8>, _ start: Int, _ end: Int, skipped: Int,
                             _ body: (UnsafeBufferPointer<UInt8>?, Int) -> Void) {
        if skipped >= 0 {
            body(nil, skipped + end - start)
            return
        }
        var end = end
        if end > start, base[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        body(UnsafeBufferPointer(start: base + start, count: end - start), end - start)
    }
}

/// Output gathered in memory and written to standard output in large writes.
struct OutputBuffer {
    private var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(1 << 17) }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        if bytes.count >= 1 << 16 { flush() }
    }

    /// `value` with the bytes that would break a tab-separated line escaped: `%`, tab, LF and CR
    /// as `%25`, `%09`, `%0A`, `%0D` (so the value reads back by percent-decoding).
    mutating func appendEscapedForLine(_ value: String) {
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "%"), 0x09, 0x0A, 0x0D:
                bytes.append(UInt8(ascii: "%"))
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
    }

    /// `line`'s bytes and a newline.
    mutating func appendLine(_ line: [UInt8]) {
        bytes.append(contentsOf: line)
        append("\n")
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    mutating func flush() {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { break }
            offset += written
        }
        bytes.removeAll(keepingCapacity: true)
    }
}
