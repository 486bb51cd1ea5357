import Foundation
import Testing
@testable import JSON

/// Every kind of value an entry holds, with keys whose byte order differs from their declaration order.
private struct Varied: Encodable {
    enum Mood: Encodable { case calm, busy(level: Int, note: String?) }
    enum Kind: String, Encodable { case plain, fancy = "fancy/one" }
    struct Inner: Encodable {
        var zeta = "é\u{301} — 🚀"
        var Zeta = "upper"
        var alpha: [String] = ["a", "b\"c", "back\\slash", "ctl \u{1}\u{8}\u{c}\n\r\t\u{1f}", "del \u{7f}", "/"]
        var éclair = 1
        var e = 2
    }

    var date = Date(timeIntervalSince1970: 1_795_000_000.75)
    var whole = 1.0
    var negativeZero = -0.0
    var fraction = 0.1
    var sum = 0.1 + 0.2
    var huge = 1e20
    var large = 1e16
    var belowLarge = 123_456_789_012_345.0
    var tiny = 1e-7
    var extreme = -1.5e300
    var float: Float = 0.1
    var wholeFloat: Float = 3
    var small: Int8 = -8
    var big = UInt64.max
    var minimum = Int.min
    var int64: Int64 = -9_000_000_000
    var flag = false
    var missing: String? = nil
    var present: String? = "x"
    var url = URL(string: "https://example.com/a?b=c&d=%20")!
    var data = Data([0, 1, 2, 250, 255])
    var id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    var inner = Inner()
    var kinds: [Kind] = [.plain, .fancy]
    var moods: [Mood] = [.calm, .busy(level: 3, note: nil), .busy(level: -1, note: "late")]
    var byName = ["one": 1, "two": 2, "three": 3, "Four": 4, "": 0, "ü": 5, "u": 6]
    var byNumber = [3: "three", 10: "ten", -1: "minus"]
    var nested: [[Double?]] = [[1.5, nil, 2], [], [-0.0]]
    var optionalDates: [Date?] = [Date(timeIntervalSince1970: 0), nil]
    var optionalIntegers: [UInt8?] = [255, nil]
    var empty = Empty()
    var emptyList: [Int] = []
    var set: Set<Int> = [7]
}

private struct Empty: Encodable {
    func encode(to encoder: any Encoder) throws {}
}

/// Keys written twice, nested containers filled after later members, a single value replacing a container.
private struct Rewritten: Encodable {
    func encode(to encoder: any Encoder) throws {
        enum Keys: String, CodingKey { case inner, list, after, twice, b, a }
        enum InnerKeys: CodingKey { case b, a }
        var container = encoder.container(keyedBy: Keys.self)
        var inner = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
        var list = container.nestedUnkeyedContainer(forKey: .list)
        try container.encode(1, forKey: .after)
        try container.encode("first", forKey: .twice)
        try inner.encode("late", forKey: .b)
        try list.encode(1)
        var nested = list.nestedUnkeyedContainer()
        try list.encode(3)
        try nested.encode(2)
        var deeper = nested.nestedContainer(keyedBy: InnerKeys.self)
        try inner.encode(2.5, forKey: .a)
        try container.encode(["second"], forKey: .twice)
        try deeper.encode(true, forKey: .a)
        _ = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .b)
        try container.encode(Optional<Int>.none, forKey: .b)
        try container.encodeNil(forKey: .a)
        try container.encode(4, forKey: .a)
    }
}

private struct WrappedScalar: Encodable {
    var value: Double
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

private struct UsesSuper: Encodable {
    func encode(to encoder: any Encoder) throws {
        enum Keys: CodingKey { case value }
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(1, forKey: .value)
        try 2.encode(to: container.superEncoder())
    }
}

/// A value of a random shape, for comparing the two encoders on shapes nobody thought of.
private indirect enum Generated: Encodable {
    case number(Double)
    case integer(Int)
    case text(String)
    case list([Generated])
    case members([String: Generated])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .text(let value): try container.encode(value)
        case .list(let value): try container.encode(value)
        case .members(let value): try container.encode(value)
        }
    }

    static func make(_ generator: inout some RandomNumberGenerator, depth: Int) -> Generated {
        let words = ["a", "B", "é", "e\u{301}", "z", "aa", "", "\"", "\\", "\n", "🚀", "/", "a b", "ß"]
        switch Int.random(in: 0..<(depth > 3 ? 3 : 5), using: &generator) {
        case 0:
            let choices = [0.0, -0.0, 1.0, 0.5, 1e-300, 1e300, 1e15, 1e16, 123.456, -7.0, Double.leastNonzeroMagnitude]
            return .number(Bool.random(using: &generator)
                ? choices.randomElement(using: &generator)!
                : Double.random(in: -1e6...1e6, using: &generator))
        case 1: return .integer(Int.random(in: Int.min...Int.max, using: &generator))
        case 2: return .text((0..<Int.random(in: 0...3, using: &generator))
                    .map { _ in words.randomElement(using: &generator)! }.joined())
        case 3: return .list((0..<Int.random(in: 0...4, using: &generator))
                    .map { _ in make(&generator, depth: depth + 1) })
        default:
            var members: [String: Generated] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                members[words.randomElement(using: &generator)! + words.randomElement(using: &generator)!]
                    = make(&generator, depth: depth + 1)
            }
            return .members(members)
        }
    }
}

@Suite("JSONTextEncoder: the canonical text of JSONValueEncoder's value, byte for byte, without the value")
struct JSONTextEncoderTests {
    /// The text the engine stored before: the value, then its canonical text.
    static func viaValue(_ value: some Encodable) throws -> [UInt8] {
        var writer = JSONTextWriter()
        try writer.value(try JSONValueEncoder.encode(value))
        return writer.bytes
    }

    static func same(_ value: some Encodable) throws -> Bool {
        let direct = try JSONTextEncoder.encode(value)
        let expected = try viaValue(value)
        if direct != expected {
            Issue.record("\(String(decoding: direct, as: UTF8.self))\n!=\n\(String(decoding: expected, as: UTF8.self))")
        }
        return direct == expected
    }

    @Test("structs, enums, optionals, collections, escapes, non-ASCII keys, every number kind, dates, URLs, data")
    func variedShapes() throws {
        #expect(try Self.same(Varied()))
        #expect(try Self.same([Varied(), Varied()]))
        #expect(try Self.same(["nested": ["deeper": Varied()]]))
        let text = String(decoding: try JSONTextEncoder.encode(Varied()), as: UTF8.self)
        #expect(text.contains("\"whole\":1,") && text.contains("\"negativeZero\":0,"))
        #expect(text.contains("\"date\":\"2026-11-18T11:06:40Z\""))
        #expect(text.contains("\"Zeta\":\"upper\",\"alpha\""))   // upper case sorts before lower, by bytes
    }

    @Test("keys written twice keep the last write; containers filled after later members; wrapped scalars")
    func rewrittenAndLate() throws {
        #expect(try Self.same(Rewritten()))
        #expect(String(decoding: try JSONTextEncoder.encode(Rewritten()), as: UTF8.self)
                == #"{"a":4,"after":1,"b":null,"inner":{"a":2.5,"b":"late"},"list":[1,[2,{"a":true}],3],"twice":["second"]}"#)
        for value in [1.0, -0.0, 0.25, 1e21] {
            #expect(try Self.same(WrappedScalar(value: value)))
            #expect(try Self.same(["k": WrappedScalar(value: value)]))
        }
        #expect(try Self.same("top"))
        #expect(try Self.same(2.0))
        #expect(try Self.same([Empty()]))
    }

    @Test("one encoder reused for many values gives each its own text")
    func reused() throws {
        let encoder = JSONTextEncoder()
        var generator = SeededGenerator(seed: 28)
        for _ in 0..<300 {
            let value = Generated.make(&generator, depth: 0)
            #expect(try encoder.encode(value) == Self.viaValue(value))
        }
        #expect(try encoder.encode(Varied()) == Self.viaValue(Varied()))
    }

    @Test("top-level members left out on request, and only at the top")
    func omitted() throws {
        let value = ["date": ["date": 1], "relevance": ["x": 2], "kept": ["relevance": 3]]
        let text = try JSONTextEncoder().encode(value, omittingTopLevelKeys: ["date", "relevance"])
        #expect(String(decoding: text, as: UTF8.self) == #"{"kept":{"relevance":3}}"#)
        #expect(try JSONTextEncoder().encode([1], omittingTopLevelKeys: ["date"]) == Array("[1]".utf8))
    }

    @Test("top-level members left out are not encoded at all: one that would throw does not fail the value")
    func omittedNotEncoded() throws {
        let entry = LiftedMembers()
        let text = try JSONTextEncoder().encode(entry, omittingTopLevelKeys: ["date", "relevance"])
        #expect(String(decoding: text, as: UTF8.self) == #"{"label":"kept","nested":{"date":1}}"#)
        // Kept, the same members are encoded, and the non-finite one is refused as before.
        #expect(throws: EncodingError.self) { try JSONTextEncoder().encode(entry, omittingTopLevelKeys: ["date"]) }
        #expect(throws: ThrowingMember.Refused.self) {
            try JSONTextEncoder().encode(entry, omittingTopLevelKeys: ["relevance"])
        }
    }

    @Test("non-finite numbers and empty top-level values refused; superEncoder and Decimal left to JSONEncoder")
    func refusals() {
        #expect(throws: EncodingError.self) { try JSONTextEncoder.encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try JSONTextEncoder.encode(["x": Float.infinity]) }
        #expect(throws: EncodingError.self) { try JSONTextEncoder.encode(WrappedScalar(value: -.infinity)) }
        #expect(throws: EncodingError.self) { try JSONTextEncoder.encode(Empty()) }
        #expect(throws: JSONValueEncoder.Unsupported.self) { try JSONTextEncoder.encode(UsesSuper()) }
        #expect(throws: JSONValueEncoder.Unsupported.self) { try JSONTextEncoder.encode([Decimal(1)]) }
    }
}

/// A member whose encoding always fails: encoded only if the encoder asks for it.
private struct ThrowingMember: Encodable {
    struct Refused: Error {}
    func encode(to encoder: any Encoder) throws { throw Refused() }
}

/// An entry-like value whose `date` and `relevance` cannot be encoded, and a lifted key filled through a nested
/// container after a later member.
private struct LiftedMembers: Encodable {
    enum Keys: String, CodingKey { case date, relevance, label, nested, score }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(ThrowingMember(), forKey: .date)
        try container.encode(Double.nan, forKey: .relevance)
        var lifted = container.nestedContainer(keyedBy: Keys.self, forKey: .relevance)
        try container.encode("kept", forKey: .label)
        var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .nested)
        try nested.encode(1, forKey: .date)
        try lifted.encode(2, forKey: .score)
    }
}
