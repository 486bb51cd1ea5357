import Foundation

/// Push tokens as text: lower-case hexadecimal, as APNs shows them and servers store them.
public enum PushTokenText {
    private static let digits = Array("0123456789abcdef".utf8)

    /// The token's bytes as lower-case hex.
    public static func hex(_ token: Data) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(token.count * 2)
        for byte in token {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads hex text (either case) as a token's bytes.
    /// - Returns: `nil` when the text is empty, of odd length, longer than 200 bytes of token, or holds anything
    ///   but hex digits.
    public static func token(_ text: String) -> Data? {
        guard !text.isEmpty, text.utf8.count <= 400 else { return nil }
        return bytes(hex: text)
    }

    /// Reads hex text (either case, any even length) as bytes; nil for an odd length or a non-hex character.
    static func bytes(hex text: String) -> Data? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var bytes = Data(capacity: utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// A new random token of 32 bytes, as the device would be issued by APNs.
    public static func random() -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    private static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
