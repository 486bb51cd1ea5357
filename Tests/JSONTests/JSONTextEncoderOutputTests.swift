import Foundation
import Testing
@testable import JSON

/// A value whose members change from one value to the next, as entries of one type can: members present or not,
/// written in another order, a key written twice, a member filled through a nested container.
private struct Shifting: Encodable {
    var variant: Int
    var number = 2.5

    func encode(to encoder: any Encoder) throws {
        enum Keys: String, CodingKey { case date, label, value, b, a, relevance }
        enum InnerKeys: CodingKey { case x }
        var container = encoder.container(keyedBy: Keys.self)
        switch variant {
        case 0:
            try container.encode("zero", forKey: .label)
            try container.encode(number, forKey: .value)
            try container.encode(Date(timeIntervalSince1970: 0), forKey: .date)
        case 1:
            try container.encode(number, forKey: .value)
            try container.encode("one", forKey: .label)
            try container.encode(Date(timeIntervalSince1970: 0), forKey: .date)
        case 2:
            try container.encode("first", forKey: .label)
            try container.encode(1, forKey: .a)
            try container.encode("second", forKey: .label)
        default:
            try container.encode(true, forKey: .b)
            var inner = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .value)
            try container.encode(3, forKey: .a)
            try container.encode(0.5, forKey: .relevance)
            try inner.encode(number, forKey: .x)
        }
    }
}

/// A root that encodes itself through a single-value container: its members reach the tape even when omitted, and
/// are left out only when written.
private struct Wrapping: Encodable {
    var members: [String: Int]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(members)
    }
}

@Suite("JSONTextEncoder: many values into one output, each text as the value's own")
struct JSONTextEncoderOutputTests {
    /// The text of `value` from an encoder that has encoded nothing before.
    static func alone(_ value: some Encodable, omitting omitted: [String]) throws -> [UInt8] {
        try JSONTextEncoder().encode(value, omittingTopLevelKeys: omitted)
    }

    @Test("members that change from value to value, through one encoder: each text as if encoded alone")
    func changingMembers() throws {
        let encoder = JSONTextEncoder()
        let variants = [0, 0, 1, 1, 0, 2, 2, 3, 0, 3, 1, 2, 0]
        for (index, variant) in variants.enumerated() {
            let value = Shifting(variant: variant, number: Double(index) / 4)
            for omitted in [["date", "relevance"], ["value"], [], ["label"]] {
                let text = try encoder.encode(value, omittingTopLevelKeys: omitted)
                #expect(text == (try Self.alone(value, omitting: omitted)))
            }
            #expect(try encoder.encode(value) == JSONTextEncoderTests.viaValue(value))
        }
        let wrapping = Wrapping(members: ["value": 1, "a": 2, "date": 3])
        for omitted in [["value"], [], ["date"], ["value"]] {
            let text = try encoder.encode(wrapping, omittingTopLevelKeys: omitted)
            #expect(text == (try Self.alone(wrapping, omitting: omitted)))
        }
        let text = String(decoding: try encoder.encode(Shifting(variant: 2), omittingTopLevelKeys: ["date"]),
                          as: UTF8.self)
        #expect(text == #"{"a":1,"label":"second"}"#)
        let omitted = String(decoding: try encoder.encode(Shifting(variant: 3), omittingTopLevelKeys: ["relevance"]),
                             as: UTF8.self)
        #expect(omitted == #"{"a":3,"b":true,"value":{"x":2.5}}"#)
    }

    @Test("appended texts lie one after another; a value that throws appends nothing; taking empties the output")
    func appended() throws {
        let encoder = JSONTextEncoder()
        let values: [any Encodable] = [Shifting(variant: 0), 7, "text", Shifting(variant: 3), [1.5, 2],
                                       Shifting(variant: 1)]
        var ranges: [Range<Int>] = []
        for (index, value) in values.enumerated() {
            ranges.append(try encoder.append(value, omittingTopLevelKeys: ["date"]))
            if index == 2 {
                #expect(throws: EncodingError.self) {
                    try encoder.append(Shifting(variant: 0, number: .nan), omittingTopLevelKeys: ["date"])
                }
                #expect(throws: EncodingError.self) { try encoder.append(Double.infinity) }
            }
        }
        let output = encoder.takeOutput()
        #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == output.count)
        for (range, next) in zip(ranges, ranges.dropFirst()) { #expect(range.upperBound == next.lowerBound) }
        for (range, value) in zip(ranges, values) {
            #expect(Array(output[range]) == (try Self.alone(value, omitting: ["date"])))
        }
        #expect(String(decoding: output[ranges[1]], as: UTF8.self) == "7")
        #expect(String(decoding: output[ranges[4]], as: UTF8.self) == "[1.5,2]")
        #expect(encoder.takeOutput().isEmpty)
        #expect(try encoder.append(Shifting(variant: 2)) == 0..<24)
        #expect(String(decoding: encoder.takeOutput(), as: UTF8.self) == #"{"a":1,"label":"second"}"#)
    }
}
