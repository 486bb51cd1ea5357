import Foundation
import JSON

/// Writes one JSON object per line, by default to standard error.
///
/// Each line starts with `time` (UTC, ISO 8601 with milliseconds), `level` and `msg`, then the fields in
/// name order, e.g. for a request:
///
/// ```json
/// {"time":"2026-11-29T14:07:34.123Z","level":"info","msg":"request","duration_ms":0.412,"method":"GET","path":"/healthz","request_id":"3f2a-1","status":200}
/// ```
public final class ServerLog: Sendable {
    /// A field value in a log line.
    public enum Value: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        /// A JSON string.
        case string(String)
        /// A JSON integer.
        case int(Int)
        /// A JSON number, written with up to three decimals.
        case double(Double)

        public init(stringLiteral value: String) {
            self = .string(value)
        }

        public init(integerLiteral value: Int) {
            self = .int(value)
        }
    }

    /// Lines below this level are dropped.
    public let level: LogLevel
    private let sink: @Sendable (String) -> Void

    /// Creates a log.
    /// - Parameters:
    ///   - level: The lowest level written.
    ///   - sink: Receives each line, newline included; by default one `write(2)` to standard error so
    ///     lines from concurrent requests never interleave.
    public init(level: LogLevel = .info, sink: (@Sendable (String) -> Void)? = nil) {
        self.level = level
        self.sink = sink ?? { line in
            var bytes = Array(line.utf8)
            _ = bytes.withUnsafeMutableBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
    }

    /// Whether lines at `level` are written.
    public func isEnabled(_ level: LogLevel) -> Bool {
        level >= self.level
    }

    /// Writes a line if `level` is enabled.
    /// - Parameters:
    ///   - level: The line's level.
    ///   - message: The `msg` field.
    ///   - fields: Further fields.
    public func log(_ level: LogLevel, _ message: String, _ fields: [String: Value] = [:], date: Date = Date()) {
        guard isEnabled(level) else { return }
        var line = "{\"time\":\"\(Self.timestamp(date))\",\"level\":\"\(level.rawValue)\",\"msg\":\(Self.quote(message))"
        for name in fields.keys.sorted() {
            line += ",\(Self.quote(name)):"
            switch fields[name] {
            case .string(let text): line += Self.quote(text)
            case .int(let number): line += String(number)
            case .double(let number): line += number.isFinite ? String(format: "%.3f", number) : "null"
            case nil: line += "null"
            }
        }
        sink(line + "}\n")
    }

    /// `2026-11-29T14:07:34.123Z`: the JSON module's date-time writer, with milliseconds.
    static func timestamp(_ date: Date) -> String {
        DateTimeText.string(from: date, fractionDigits: 3)
    }

    /// `text` as a JSON string literal.
    static func quote(_ text: String) -> String {
        JSONTextWriter.quoted(text)
    }
}
