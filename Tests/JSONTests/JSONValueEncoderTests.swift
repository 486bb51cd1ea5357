import Foundation
import Testing
@testable import JSON

/// Shapes entry types have: nested structs, enums with payloads, optionals, collections, Foundation values.
private struct Sample: Encodable {
    enum Mood: Encodable { case calm, busy(level: Int, note: String?) }
    struct Inner: Encodable {
        var title: String
        var tags: [String]
    }

    var date = Date(timeIntervalSince1970: 1_795_000_000.75)
    var whole = 1.0
    var fraction = 0.1
    var huge = 1e20
    var tiny = 1e-7
    var float: Float = 0.1
    var small: Int8 = -8
    var big = UInt64.max
    var flag = true
    var missing: String? = nil
    var present: String? = "x"
    var url = URL(string: "https://example.com/a?b=c")!
    var data = Data([0, 1, 2, 250])
    var id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    var inner = Inner(title: "café \"quoted\" / \n", tags: ["a", "b"])
    var moods: [Mood] = [.calm, .busy(level: 3, note: nil), .busy(level: -1, note: "late")]
    var byName = ["one": 1, "two": 2]
    var byNumber = [3: "three", 10: "ten"]
    var nested: [[Double?]] = [[1.5, nil], []]
    var optionalDates: [Date?] = [Date(timeIntervalSince1970: 0), nil]
    var optionalIntegers: [UInt8?] = [255, nil]
}

private struct Empty: Encodable {
    func encode(to encoder: any Encoder) throws {}
}

private struct UsesSuper: Encodable {
    var value = 1
    func encode(to encoder: any Encoder) throws {
        enum Keys: CodingKey { case value }
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(value, forKey: .value)
        try value.encode(to: container.superEncoder())
    }
}

/// Nested containers filled after their parent's later members.
private struct FilledLate: Encodable {
    func encode(to encoder: any Encoder) throws {
        enum Keys: CodingKey { case inner, list, after }
        enum InnerKeys: CodingKey { case a, b }
        var container = encoder.container(keyedBy: Keys.self)
        var inner = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
        var list = container.nestedUnkeyedContainer(forKey: .list)
        try container.encode(1, forKey: .after)
        try inner.encode("late", forKey: .a)
        try list.encode(1)
        var nested = list.nestedUnkeyedContainer()
        try list.encode(3)
        try nested.encode(2)
        try inner.encode(2.5, forKey: .b)
    }
}

@Suite("JSONValueEncoder: the value JSONEncoder (ISO 8601 dates) writes and JSONParser reads back")
struct JSONValueEncoderTests {
    static func viaText(_ value: some Encodable) throws -> JSONValue {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return try JSONParser.parse(try encoder.encode(value))
    }

    @Test("structs, enums with payloads, optionals, collections, dates, URLs, data, UUIDs and every number kind")
    func sameAsJSONEncoder() throws {
        let direct = try JSONValueEncoder.encode(Sample())
        #expect(direct == (try Self.viaText(Sample())))
        #expect(direct.objectValue?["whole"] == .int(1) && direct.objectValue?["float"] == .double(0.1))
        #expect(direct.objectValue?["date"] == .string("2026-11-18T11:06:40Z"))
        #expect(try JSONValueEncoder.encode([1.5, 2.0]) == Self.viaText([1.5, 2.0]))
        #expect(try JSONValueEncoder.encode("top") == .string("top"))
        #expect(try JSONValueEncoder.encode([Empty()]) == Self.viaText([Empty()]))
    }

    @Test("containers filled after later members come out as JSONEncoder writes them")
    func lateAndRewritten() throws {
        let direct = try JSONValueEncoder.encode(FilledLate())
        #expect(direct == (try Self.viaText(FilledLate())))
        #expect(direct.objectValue?["list"] == .array([.int(1), .array([.int(2)]), .int(3)]))
        #expect(direct.objectValue?["inner"] == .object(["a": .string("late"), "b": .double(2.5)]))
    }

    @Test("a non-finite number is refused as JSONEncoder refuses it; superEncoder and Decimal are left to it")
    func refusals() {
        #expect(throws: EncodingError.self) { try JSONValueEncoder.encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try JSONValueEncoder.encode(Empty()) }
        #expect(throws: EncodingError.self) { try JSONValueEncoder.encode(["x": Float.infinity]) }
        #expect(throws: JSONValueEncoder.Unsupported.self) { try JSONValueEncoder.encode(UsesSuper()) }
        #expect(throws: JSONValueEncoder.Unsupported.self) { try JSONValueEncoder.encode([Decimal(1)]) }
    }
}
