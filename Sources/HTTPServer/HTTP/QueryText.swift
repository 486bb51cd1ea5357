/// Decoding the names and values of a query string (`a+b%2Fc` → `a b/c`), without Foundation.
enum QueryText {
    /// `text` with `+` read as a space, then percent-decoded. Text with a broken escape (`%zz`, a `%` at the end) or
    /// that decodes to invalid UTF-8 is kept as received, with only the `+` replaced: what
    /// `replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? spaced` gives, at a fraction of the cost.
    static func decode(_ text: String) -> String {
        // Over the string's own bytes when it has them: the UTF-8 view's iterator cost about twenty instructions a byte.
        func isCoded(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "+") || byte == UInt8(ascii: "%") }
        guard text.utf8.withContiguousStorageIfAvailable({ $0.contains(where: isCoded) })
                ?? text.utf8.contains(where: isCoded) else { return text }
        var text = text
        return text.withUTF8 { bytes in
            decoded(bytes) ?? String(decoding: bytes.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
        }
    }

    /// `bytes` with `+` as a space and every `%XX` as its byte, in one pass; nil for a broken escape or a result that
    /// is not UTF-8.
    private static func decoded(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "+"):
                decoded.append(UInt8(ascii: " "))
                index += 1
            case UInt8(ascii: "%"):
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                else { return nil }
                decoded.append(high << 4 | low)
                index += 3
            case let byte:
                decoded.append(byte)
                index += 1
            }
        }
        return String(validating: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
