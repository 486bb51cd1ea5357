import Foundation

/// Where and why a request body is not JSON.
public struct JSONSyntaxError: Error, Equatable, Sendable {
    /// What is wrong, e.g. "expected ',' or '}'".
    public var reason: String
    /// The byte offset of the problem (0-based).
    public var offset: Int
    /// The line of the problem (1-based).
    public var line: Int
    /// The column of the problem, in bytes (1-based).
    public var column: Int
}

/// A strict RFC 8259 parser from UTF-8 bytes to `JSONValue`.
///
/// Stricter than Foundation's parser on Linux, which accepts trailing commas, keeps one of two duplicate
/// keys silently and reports no position: request bodies get exact errors here. Integers that fit an
/// `Int` (no fraction, no exponent) stay integers; other numbers must be finite doubles.
public struct JSONParser {
    /// How deep arrays and objects may nest, so hostile input cannot exhaust the stack.
    static let maximumDepth = 256

    let bytes: [UInt8]
    var index = 0
    private var depth = 0

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses one JSON text (surrounding whitespace allowed, nothing else).
    /// - Throws: ``JSONSyntaxError``.
    public static func parse(_ data: Data) throws -> JSONValue {
        var parser = JSONParser(bytes: [UInt8](data))
        if String(validating: parser.bytes, as: UTF8.self) == nil {
            throw parser.error("the body is not valid UTF-8", at: 0)
        }
        parser.skipWhitespace()
        guard parser.index < parser.bytes.count else { throw parser.error("the body is empty") }
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    func error(_ reason: String, at offset: Int? = nil) -> JSONSyntaxError {
        let offset = offset ?? index
        var line = 1
        var lineStart = 0
        for position in 0..<min(offset, bytes.count) where bytes[position] == UInt8(ascii: "\n") {
            line += 1
            lineStart = position + 1
        }
        return JSONSyntaxError(reason: reason, offset: offset, line: line, column: offset - lineStart + 1)
    }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            index += 1
        }
    }

    private mutating func expect(_ literal: String, value: JSONValue) throws -> JSONValue {
        let start = index
        for byte in literal.utf8 {
            guard current == byte else { throw error("invalid literal (expected '\(literal)')", at: start) }
            index += 1
        }
        return value
    }

    private mutating func parseValue() throws -> JSONValue {
        guard let byte = current else { throw error("unexpected end of the body") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expect("true", value: .bool(true))
        case UInt8(ascii: "f"): return try expect("false", value: .bool(false))
        case UInt8(ascii: "n"): return try expect("null", value: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character '\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func enterContainer() throws {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("arrays and objects nest deeper than \(Self.maximumDepth)") }
        index += 1
        skipWhitespace()
    }

    private mutating func parseObject() throws -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        var members: [String: JSONValue] = [:]
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            guard current == UInt8(ascii: "\"") else { throw error("expected a member name in double quotes") }
            let keyOffset = index
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after a member name") }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            guard members.updateValue(value, forKey: key) == nil else {
                throw error("duplicate member name \"\(key)\"", at: keyOffset)
            }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default:
                throw error("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func parseArray() throws -> JSONValue {
        try enterContainer()
        defer { depth -= 1 }
        var elements: [JSONValue] = []
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default:
                throw error("expected ',' or ']' in an array")
            }
        }
    }
}
