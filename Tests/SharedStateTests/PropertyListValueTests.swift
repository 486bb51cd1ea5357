import Foundation
import Testing
@testable import SharedState

@Suite("PropertyListValue")
struct PropertyListValueTests {
    @Test func convertsFoundationValuesKeepingTheirKind() throws {
        #expect(try PropertyListValue(any: 1) == .integer(1))
        #expect(try PropertyListValue(any: 1.0) == .double(1))
        #expect(try PropertyListValue(any: true) == .bool(true))
        #expect(try PropertyListValue(any: Float(1.5)) == .double(1.5))
        #expect(try PropertyListValue(any: Int8(-3)) == .integer(-3))
        #expect(try PropertyListValue(any: UInt32(7)) == .integer(7))
        #expect(try PropertyListValue(any: NSNumber(value: true)) == .bool(true))
        #expect(try PropertyListValue(any: NSNumber(value: 5)) == .integer(5))
        #expect(try PropertyListValue(any: NSNumber(value: 5.5)) == .double(5.5))
        #expect(try PropertyListValue(any: NSString(string: "s")) == .string("s"))
        #expect(try PropertyListValue(any: ["a": [1, "b"]] as [String: Any]) == ["a": [1, "b"]])
        #expect(try PropertyListValue(any: URL(string: "https://example.com/x")!) == "https://example.com/x")
        #expect(throws: NotAPropertyListError.self) { try PropertyListValue(any: UInt64.max) }
        #expect(throws: NotAPropertyListError.self) { try PropertyListValue(any: [1: 2] as [Int: Int]) }
        #expect(throws: NotAPropertyListError.self) { try PropertyListValue(any: (1, 2)) }
    }

    @Test func foundationValueRoundTrips() throws {
        let value: PropertyListValue = ["i": 1, "d": 2.5, "b": false, "s": "x", "a": [.data(Data([9]))],
                                        "t": .date(Date(timeIntervalSinceReferenceDate: 3))]
        #expect(try PropertyListValue(any: value.foundationValue) == value)
    }

    @Test func taggedEncodingRoundTripsAndRefusesGarbage() throws {
        let value: PropertyListValue = .array([.double(.nan), .double(-0.0), .integer(.min), "é", [:], []])
        guard case .blob(let bytes) = value.storageValue else {
            Issue.record("containers are stored as blobs")
            return
        }
        let decoded = PropertyListValue(storageType: "array", value: .blob(bytes))
        #expect(decoded?.storageValue == value.storageValue)
        #expect(PropertyListValue(storageType: "array", value: .blob(bytes.dropLast())) == nil)
        #expect(PropertyListValue(storageType: "array", value: .blob(Data([7, 255, 255, 255, 255, 255, 255, 255, 127]))) == nil)
        #expect(PropertyListValue(storageType: "dictionary", value: .blob(bytes)) == nil, "type and tag must agree")
        #expect(PropertyListValue(storageType: "array", value: .blob(Data(repeating: 7, count: 10_000))) == nil)
        #expect(PropertyListValue(storageType: "integer", value: .text("1")) == nil)
        #expect(PropertyListValue(storageType: "unknown", value: .integer(1)) == nil)
    }

    @Test func codableKeepsTheCase() throws {
        let value: PropertyListValue = ["n": 1, "d": 1.0, "b": true, "t": .date(Date(timeIntervalSinceReferenceDate: 0))]
        let decoded = try JSONDecoder().decode(PropertyListValue.self, from: JSONEncoder().encode(value))
        #expect(decoded == value)
    }
}
