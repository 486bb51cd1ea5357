import Foundation
import JSON
import Testing

@Suite("JSONTextWriter writes what JSONEncoder writes, byte for byte")
struct JSONTextWriterTests {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private static func encoded<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static let awkwardStrings = [
        "", "plain", "quote \" and backslash \\", "slash / stays", "controls \u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}",
        "DEL \u{7F}", "café ü 😀", "\u{2028}\u{2029}", "\u{FEFF}bom",
    ]

    @Test("strings", arguments: awkwardStrings)
    func strings(text: String) throws {
        var writer = JSONTextWriter()
        writer.string(text)
        #expect(writer.text == (try Self.encoded(text)))
        #expect(JSONTextWriter.quoted(text) == (try Self.encoded(text)))
    }

    @Test("numbers", arguments: [0.0, -0.0, 1.5, 1e-7, 1.5e300, -2.25, 123_456_789.125, 1e21, 0.1,
                                 // whole values, written without `description` below 2^53
                                 1, -1, 799_300_800, -799_300_800, 1e15, 1e16, 9_007_199_254_740_991,
                                 9_007_199_254_740_992, 9_007_199_254_740_994, -9_007_199_254_740_991, 1e300])
    func doubles(value: Double) throws {
        var writer = JSONTextWriter()
        try writer.double(value)
        #expect(writer.text == (try Self.encoded(value)))
    }

    @Test("whole and fractional doubles side by side in an array and as members: one comma each")
    func doublesInContainers() throws {
        let values: [Double] = [1, 2.5, -0.0, 3, 0, 1e16, 4]
        var writer = JSONTextWriter()
        writer.beginArray()
        for value in values { try writer.double(value) }
        writer.endArray()
        #expect(writer.text == (try Self.encoded(values)))
        var object = JSONTextWriter()
        object.beginObject()
        object.key("a")
        try object.double(1)
        object.key("b")
        try object.date(Date(timeIntervalSinceReferenceDate: 799_300_800))
        object.endObject()
        #expect(object.text == (try Self.encoded(["a": 1.0, "b": 799_300_800.0])))
    }

    @Test("objects of one and two members, in either order of insertion, and larger ones: sorted by key bytes")
    func smallObjects() throws {
        let pairs: [(String, String)] = [("a", "b"), ("b", "a"), ("é", "z"), ("E", "e"), ("", "x"), ("ab", "a"),
                                         ("taskId", "completed")]
        for (first, second) in pairs {
            for members in [[first: 1], [first: 1, second: 2], [second: 2, first: 1]] as [[String: Int]] {
                let value = JSONValue.object(members.mapValues { .int($0) })
                var writer = JSONTextWriter()
                try writer.value(value)
                #expect(writer.text == (try Self.encoded(members)))
                var strings = JSONTextWriter()
                strings.object(members.mapValues(String.init))
                #expect(strings.text == (try Self.encoded(members.mapValues(String.init))))
            }
        }
        let many = Dictionary(uniqueKeysWithValues: ["é", "z", "E", "e", "", "ab", "a"].enumerated().map { ($1, $0) })
        var writer = JSONTextWriter()
        try writer.value(.object(many.mapValues { .int($0) }))
        #expect(writer.text == (try Self.encoded(many)))
    }

    @Test("a fractional double written again, next to it or later, after other values: the same text each time")
    func repeatedDoubles() throws {
        let values: [Double] = [786_798_123.456789, 786_798_123.456789, 2.5, 786_798_123.456789, 1, -0.0, -0.0, 0,
                                0.1, 786_883_000.25, 786_883_000.25, 0.1, 1e-7, 1e-7]
        var writer = JSONTextWriter()
        writer.beginArray()
        for value in values { try writer.double(value) }
        writer.endArray()
        #expect(writer.text == (try Self.encoded(values)))
        let dates = ["performedAt": Date(timeIntervalSinceReferenceDate: 786_798_123.456789),
                     "firstPerformedAt": Date(timeIntervalSinceReferenceDate: 786_798_123.456789),
                     "expiresAt": Date(timeIntervalSinceReferenceDate: 786_884_523.456789)]
        var object = JSONTextWriter()
        object.beginObject()
        for key in dates.keys.sorted() {
            object.key(key)
            try object.date(dates[key]!)
        }
        object.endObject()
        #expect(object.text == (try Self.encoded(dates)))
    }

    @Test("lists of strings written in place: what the writer writes, or nil when one needs escaping")
    func plainStringLists() throws {
        let lists: [[String]] = [[], [""], ["TaskList"], ["a", "b"], ["a widget kind longer than fifteen bytes"],
                                 ["café ü 😀", "/", "*"], Array(repeating: "kind", count: 40)]
        for list in lists {
            var writer = JSONTextWriter()
            writer.beginArray()
            for string in list { writer.string(string) }
            writer.endArray()
            #expect(JSONTextWriter.plainText(strings: list) == writer.text)
            #expect(JSONTextWriter.plainText(strings: list) == (try Self.encoded(list)))
        }
        for awkward in ["quote \"", "back\\slash", "tab\t", "nul \u{0}"] {
            #expect(JSONTextWriter.plainText(strings: ["plain", awkward]) == nil)
        }
    }

    @Test("integers at their limits")
    func integers() throws {
        for value in [0, -1, Int.max, Int.min, 42] {
            var writer = JSONTextWriter()
            writer.int(value)
            #expect(writer.text == (try Self.encoded(value)))
        }
        for value in [Int64.min, -10, 0, 9, 10, Int64.max] {
            var writer = JSONTextWriter()
            writer.int(value)
            #expect(writer.text == (try Self.encoded(value)))
        }
        for value in [Int32.min, 7, Int32.max] {   // through the generic one
            var writer = JSONTextWriter()
            writer.int(value)
            #expect(writer.text == (try Self.encoded(value)))
        }
        var writer = JSONTextWriter()
        writer.int(UInt64.max)
        #expect(writer.text == (try Self.encoded(UInt64.max)))
    }

    @Test("a non-finite double is an error, as with JSONEncoder")
    func nonFinite() {
        var writer = JSONTextWriter()
        #expect(throws: (any Error).self) { try writer.double(.nan) }
        #expect(throws: (any Error).self) { try Self.encoded(Double.infinity) }
    }

    @Test("nested values: members sorted by key bytes, commas in the right places")
    func nested() throws {
        let value: JSONValue = [
            "b": [1, 2.5, "x", nil, true, ["z": [], "a": [:]]],
            "a": ["é": 1, "e": 2, "E": 3, "_": 4],
            "": "empty key",
        ]
        var writer = JSONTextWriter()
        try writer.value(value)
        #expect(writer.text == (try Self.encoded(value)))
    }

    @Test("containers nested deeper than 64 levels, several members at each: commas right at every level")
    func deeplyNested() throws {
        var value: JSONValue = ["leaf": 1, "other": [1, 2]]
        for level in 0..<150 {
            value = level.isMultiple(of: 2) ? ["a": value, "b": [1, "x"], "c": .null] : [value, 2, ["k": 3]]
        }
        var writer = JSONTextWriter()
        try writer.value(value)
        #expect(writer.text == (try Self.encoded(value)))
    }

    /// An enum as `Codable` synthesizes it, for ``enumCases()``.
    private enum Case: Codable {
        case text(String)
        case number(Int)
        case nested([Case])
    }

    private static func write(_ value: Case, to writer: inout JSONTextWriter) {
        switch value {
        case .text(let text):
            writer.beginEnumCase("text")
            writer.string(text)
        case .number(let number):
            writer.beginEnumCase("number")
            writer.int(number)
        case .nested(let cases):
            writer.beginEnumCase("nested")
            writer.beginArray()
            for element in cases { write(element, to: &writer) }
            writer.endArray()
        }
        writer.endEnumCase()
    }

    @Test("enum cases with an associated value, in arrays and as members: the synthesized Codable form")
    func enumCases() throws {
        let cases: [Case] = [.text("a\"b"), .number(-2), .nested([.text(""), .nested([]), .number(3)]), .number(4)]
        var array = JSONTextWriter()
        array.beginArray()
        for value in cases { Self.write(value, to: &array) }
        array.endArray()
        #expect(array.text == (try Self.encoded(cases)))
        var object = JSONTextWriter()
        object.beginObject()
        for (index, value) in cases.enumerated() {
            object.key("k\(index)")
            Self.write(value, to: &object)
        }
        object.endObject()
        let members = Dictionary(uniqueKeysWithValues: cases.enumerated().map { ("k\($0.offset)", $0.element) })
        #expect(object.text == (try Self.encoded(members)))
    }

    @Test("dates as JSONEncoder's .iso8601 strategy writes them; data as base64")
    func datesAndData() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        for seconds in [0.0, 1_795_960_800.75, -1.5, 253_402_300_799.0, 951_782_400.0] {
            let date = Date(timeIntervalSince1970: seconds)
            var writer = JSONTextWriter()
            writer.iso8601(date)
            #expect(writer.text == String(decoding: try encoder.encode(date), as: UTF8.self), "\(seconds)")
        }
        var writer = JSONTextWriter()
        writer.base64(Data([0, 1, 2, 250, 255]))
        #expect(writer.text == (try Self.encoded(Data([0, 1, 2, 250, 255]))))
    }
}
