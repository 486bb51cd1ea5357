import Foundation
import WidgetHostCommandLine

/// One argument of the command line, as the bytes the process was given.
///
/// `CommandLine.arguments` turns bytes that are not UTF-8 into U+FFFD, so a URL or a path holding
/// such a byte would be acted on as another one. Arguments are read from `argv` instead, and an
/// argument that is not UTF-8 has no `text`: `route <url>` routes its bytes as they are (as `route -`
/// routes a line), and every other use refuses it with `notUTF8Message`, naming it and its first bad byte.
struct CommandLineArgument: Sendable {
    /// Where it is on the command line: 1 for the word after `widgethost`.
    let position: Int
    /// Its bytes, without the NUL that ends it in `argv`.
    let bytes: [UInt8]
    /// Its bytes as text, or nil when they are not UTF-8.
    let text: String?

    /// An argument of `bytes` at `position`.
    init(position: Int, bytes: [UInt8]) {
        self.position = position
        self.bytes = bytes
        text = String(validating: bytes, as: UTF8.self)
    }

    /// The arguments after the program's name, read from `argv` (each element ends at its NUL).
    static func current() -> [CommandLineArgument] {
        let argv = CommandLine.unsafeArgv
        return (1..<Int(CommandLine.argc)).compactMap { index in
            argv[index].map { element in
                CommandLineArgument(position: index, bytes: Array(UnsafeBufferPointer(start: UnsafeRawPointer(element)
                    .assumingMemoryBound(to: UInt8.self), count: strlen(element))))
            }
        }
    }

    /// Where the first byte sequence that is not UTF-8 starts (after the scalars decoded before it),
    /// or nil when the argument is UTF-8.
    var firstByteNotUTF8: Int? {
        guard text == nil else { return nil }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while case let .scalarValue(scalar) = decoder.decode(&iterator) { offset += UTF8.width(scalar) }
        return offset
    }

    /// Why this argument cannot be taken as text, with its bytes shown (those that are not
    /// printable ASCII as `\xFF`): nil when it is UTF-8.
    var notUTF8Message: String? {
        guard let offset = firstByteNotUTF8 else { return nil }
        let shown = bytes.map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : String(format: "\\x%02X", $0) }.joined()
        return "argument \(position) is not UTF-8 at byte \(offset): \(shown)"
    }
}

extension [CommandLineArgument] {
    /// The arguments' text, or nil after writing why the first that is not UTF-8 is refused.
    func textOrRefusal() -> [String]? {
        if let message = lazy.compactMap(\.notUTF8Message).first {
            printError("widgethost: \(message)")
            return nil
        }
        return map { $0.text ?? "" }
    }
}
