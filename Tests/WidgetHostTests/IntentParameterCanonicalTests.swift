import AppIntents
import Foundation
import JSON
import Testing
@testable import WidgetHost

private struct CanonicalFormsIntent: AppIntent {
    static let title: LocalizedStringResource = "Canonical forms"
    @Parameter(title: "Name") var name: String
    @Parameter(title: "Count") var count: Int
    @Parameter(title: "Ratio") var ratio: Double
    @Parameter(title: "Flag", default: true) var flag: Bool
    @Parameter(title: "Note") var note: String?
    func perform() async throws -> some IntentResult { .result() }
}

/// A bound intent's canonical parameters: the given members where they are canonical already, their canonical forms
/// where not, and defaults for the members not given.
@Suite("Intent parameter canonical forms")
struct IntentParameterCanonicalTests {
    private func bind(_ raw: [String: JSONValue]) async throws -> [String: JSONValue] {
        let binder = IntentParameterBinder(descriptor: IntentDescriptor(name: "CanonicalFormsIntent",
                                                                        type: CanonicalFormsIntent.self))
        return try await binder.bind(raw).parameters
    }

    @Test
    func givenCanonicalMembersAreKeptAndDefaultsFilledIn() async throws {
        let canonical = try await bind(["name": "café", "count": 3, "ratio": .double(0.5)])
        #expect(canonical == ["name": "café", "count": 3, "ratio": .double(0.5), "flag": true, "note": .null])
    }

    @Test
    func membersGivenInAnotherFormTakeTheirCanonicalOne() async throws {
        // An int for a Double, and a negative zero (which `==` does not tell from zero).
        let canonical = try await bind(["name": "x", "count": 4, "ratio": .int(2)])
        #expect(canonical["ratio"]?.doubleBits == Double(2).bitPattern, "the int is given as the double it is")
        #expect(canonical["count"] == .int(4))
        let negativeZero = try await bind(["name": "x", "count": 1, "ratio": .double(-0.0)])
        guard case .double(let ratio)? = negativeZero["ratio"] else {
            Issue.record("ratio is not a double: \(String(describing: negativeZero["ratio"]))")
            return
        }
        #expect(ratio.bitPattern == ParameterValueConversion.json(from: .double(-0.0)).doubleBits)
    }

    @Test
    func aDecomposedTextIsKeptByteForByte() async throws {
        let decomposed = "cafe\u{301}"
        let canonical = try await bind(["name": .string(decomposed), "count": 1, "ratio": 1.5])
        guard case .string(let name)? = canonical["name"] else {
            Issue.record("name is not a string")
            return
        }
        #expect(Array(name.utf8) == Array(decomposed.utf8))
    }
}

private extension JSONValue {
    var doubleBits: UInt64? {
        if case .double(let value) = self { return value.bitPattern }
        return nil
    }
}
