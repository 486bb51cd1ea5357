import COpenSSL

/// An error reported by OpenSSL while loading or using a provider key: what WidgetHost was doing, and OpenSSL's own
/// queued messages (`ERR_get_error`). The key's bytes are never part of it.
public struct OpenSSLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was being done (`reading the .p8 key '/path'`).
    public var operation: String
    /// OpenSSL's messages, oldest first (may be empty when OpenSSL queued none).
    public var messages: [String]

    /// Creates an error, draining OpenSSL's error queue of this thread into ``messages``.
    init(_ operation: String) {
        self.operation = operation
        var messages: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.messages = messages
    }

    public var description: String {
        messages.isEmpty ? "OpenSSL failed \(operation)" : "OpenSSL failed \(operation): " + messages.joined(separator: "; ")
    }

    /// Passes `1` (OpenSSL's success) and throws for anything else.
    static func check(_ result: Int32, _ operation: @autoclosure () -> String) throws(OpenSSLError) {
        guard result == 1 else { throw OpenSSLError(operation()) }
    }
}
