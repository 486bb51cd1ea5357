// `AppIntent.parameters()` lists stored properties once per type and reads instances through key paths; for
// every shape of intent it must list exactly what `Mirror` lists.
import AppIntents
import Foundation
import Testing

private struct PlainListingIntent: AppIntent {
    static let title: LocalizedStringResource = "Plain"
    @Parameter(title: "First") var first: String
    let unrelated = 3
    @Parameter(title: "Count", default: 2) var count: Int
    var note: String? = "not a parameter"
    @Parameter(title: "When") var when: Date?
    func perform() async throws -> some IntentResult { .result() }
}

/// A closure field: reflection cannot make a key path for it, so the type is read through `Mirror`.
private struct ClosureFieldIntent: AppIntent {
    static let title: LocalizedStringResource = "Closure"
    @Parameter(title: "Name") var name: String
    let callback: @Sendable () -> Void = {}
    @Parameter(title: "Flag", default: true) var flag: Bool
    func perform() async throws -> some IntentResult { .result() }
}

/// A parameter held in a property of another type (an existential) is read through its key path, the wrappers
/// around it at their offsets, after fields of other sizes.
private struct ErasedFieldIntent: AppIntent {
    static let title: LocalizedStringResource = "Erased"
    let flag: Bool = false
    @Parameter(title: "A") var a: String
    let erased: any AnyIntentParameter = IntentParameter<Int>(title: "Erased", default: 4)
    let small: UInt8 = 1
    @Parameter(title: "B", default: true) var b: Bool
    func perform() async throws -> some IntentResult { .result() }
}

/// A class: only structs are listed once; classes go through `Mirror`.
private final class ClassIntent: AppIntent, @unchecked Sendable {
    // @unchecked Sendable: the wrapper's backing storage is never reassigned after init, and the parameter
    // object guards its value with a lock.
    static let title: LocalizedStringResource = "Class"
    @Parameter(title: "Value", default: 1) var value: Int
    required init() {}
    func perform() async throws -> some IntentResult { .result() }
}

/// A custom mirror decides what `Mirror` (and so `parameters()`) sees.
private struct MirroredIntent: AppIntent, CustomReflectable {
    static let title: LocalizedStringResource = "Mirrored"
    @Parameter(title: "Shown") var shown: String
    @Parameter(title: "Hidden") var hidden: String
    var customMirror: Mirror { Mirror(self, children: ["_shown": _shown]) }
    func perform() async throws -> some IntentResult { .result() }
}

@Suite("Parameter listing")
struct ParameterListingTests {
    /// What `Mirror` finds: the reference listing.
    static func mirrored(_ intent: some AppIntent) -> [(String, ObjectIdentifier)] {
        Mirror(reflecting: intent).children.compactMap { child in
            guard let parameter = child.value as? any AnyIntentParameter, let label = child.label else { return nil }
            return (label.hasPrefix("_") ? String(label.dropFirst()) : label, ObjectIdentifier(parameter))
        }
    }

    static func listed(_ intent: some AppIntent) -> [(String, ObjectIdentifier)] {
        intent.parameters().map { ($0.name, ObjectIdentifier($0.parameter)) }
    }

    static func expectSameAsMirror(_ intent: some AppIntent, names: [String]) {
        // Twice: the first call lists the type's fields, the second uses the list.
        for _ in 0..<2 {
            let listed = listed(intent)
            let mirrored = mirrored(intent)
            #expect(listed.map(\.0) == names)
            #expect(listed.map(\.0) == mirrored.map(\.0))
            #expect(listed.map(\.1) == mirrored.map(\.1), "the instance's own parameter objects")
        }
    }

    @Test
    func structsListTheirParametersAsMirrorDoes() {
        Self.expectSameAsMirror(PlainListingIntent(), names: ["first", "count", "when"])
        // A fresh instance has fresh parameter objects, and assigning through them sets that instance only.
        let one = PlainListingIntent()
        let two = PlainListingIntent()
        #expect(Self.listed(one).map(\.1) != Self.listed(two).map(\.1))
        try? one.parameters()[1].parameter.assign(.int(7))
        #expect(one.count == 7)
        #expect(two.count == 2)
        Self.expectSameAsMirror(ErasedFieldIntent(), names: ["a", "erased", "b"])
        let erased = ErasedFieldIntent()
        try? erased.parameters()[2].parameter.assign(.bool(false))
        #expect(erased.b == false)
    }

    @Test
    func typesReflectionCannotListFallBackToMirror() {
        Self.expectSameAsMirror(ClosureFieldIntent(), names: ["name", "flag"])
        Self.expectSameAsMirror(ClassIntent(), names: ["value"])
        Self.expectSameAsMirror(MirroredIntent(), names: ["shown"])
    }

    @Test
    func concurrentFirstUsesAgree() async {
        let listings = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<16 { group.addTask { PlainListingIntent().parameters().map(\.name) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(listings.allSatisfy { $0 == ["first", "count", "when"] })
    }
}
