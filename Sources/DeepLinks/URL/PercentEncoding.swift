/// Percent-decoding and -encoding of URL components (RFC 3986, with `+` as a space in queries).
package enum PercentEncoding {
    /// Characters left as they are in a path segment: unreserved, sub-delimiters, `:` and `@`.
    static let pathSegmentAllowed = ByteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@")
    /// Characters left as they are in a query name or value. `&`, `=`, `+` and `#` are encoded
    /// because they delimit or change the meaning of a query.
    static let queryComponentAllowed = ByteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$'()*,;:@/?")

    /// Why decoding failed.
    package enum DecodingFailure: Error {
        /// A `%` not followed by two hex digits, at this byte offset of the input.
        case invalidEscape(offset: Int)
        /// The decoded bytes are not valid UTF-8.
        case invalidUTF8
    }

    /// Decodes `%XX` escapes (and `+` as a space when `plusIsSpace`), checking the result is UTF-8.
    package static func decode(_ bytes: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool) throws(DecodingFailure) -> String {
        var needsWork = false
        for byte in bytes where byte == UInt8(ascii: "%") || (plusIsSpace && byte == UInt8(ascii: "+")) {
            needsWork = true
            break
        }
        if !needsWork {
            // Input came from a Swift String, so it is valid UTF-8 already.
            return String(decoding: bytes, as: UTF8.self)
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count,
                      let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                else { throw .invalidEscape(offset: index) }
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        guard let string = String(validating: output, as: UTF8.self) else { throw .invalidUTF8 }
        return string
    }

    /// Percent-encodes every byte of `string` not in `allowed`, with upper-case hex digits.
    static func encode(_ string: String, allowed: ByteSet) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(string.utf8.count)
        append(string, allowed: allowed, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends `string` to `output`, percent-encoding every byte not in `allowed` as ``encode(_:allowed:)`` does.
    static func append(_ string: String, allowed: ByteSet, to output: inout [UInt8]) {
        for byte in string.utf8 {
            if allowed.contains(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0xF)])
            }
        }
    }

    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}

/// A set of ASCII bytes, for percent-encoding decisions.
struct ByteSet: Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    init(_ characters: String = "") {
        for byte in characters.utf8 { insert(byte) }
    }

    mutating func insert(_ byte: UInt8) {
        if byte < 64 { low |= 1 << UInt64(byte) } else if byte < 128 { high |= 1 << UInt64(byte - 64) }
    }

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        if byte < 64 { return low & (1 << UInt64(byte)) != 0 }
        if byte < 128 { return high & (1 << UInt64(byte - 64)) != 0 }
        return false
    }
}
