import Foundation
import JSON
import SharedState
import Testing
@testable import WidgetHost

/// The hand-written JSON of stored outcomes and canonical text is `JSONEncoder`'s, byte for byte, and decodes back.
@Suite("Intent outcome storage")
struct IntentOutcomeStorageTests {
    static let awkwardStrings = [
        "", "plain", "quote \" and backslash \\", "slash / stays", "line\nfeed\r\ttab\u{8}\u{C}",
        "\u{0}nul and \u{1F} unit separator and \u{7F} del", "é, 日本語, 🇫🇷 and \u{2028}\u{2029}",
        "combining e\u{301} vs é", "\\u0041 is not an escape here", "{\"json\":\"inside\"}",
    ]
    static let awkwardDoubles: [Double] = [
        0, -0.0, 1, -1, 0.1, 1.5, 100, 1e-7, 2.5e-5, 1e16, 1e17, 1e20, 1e21, 1.5e300, -1.5e-300,
        .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1.234_567_890_123_456_8e20, 1 / 3, 736_560_000.123_456,
    ]
    static let awkwardIntegers: [Int] = [0, 1, -1, 9, 10, -10, 42, Int(Int32.max), Int.max, Int.min]

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func awkwardJSON() -> JSONValue {
        var members: [String: JSONValue] = [:]
        for (index, string) in awkwardStrings.enumerated() {
            members[string] = .string(awkwardStrings[(index + 1) % awkwardStrings.count])
        }
        members["B"] = .array(awkwardDoubles.map(JSONValue.double))
        members["a"] = .array(awkwardIntegers.map(JSONValue.int))
        members["aa"] = .object(["nested": .array([.null, .bool(true), .bool(false), .object([:]), .array([])])])
        return .object(members)
    }

    static func awkwardPropertyList() -> PropertyListValue {
        .dictionary([
            "strings": .array(awkwardStrings.map(PropertyListValue.string)),
            "doubles": .array(awkwardDoubles.map(PropertyListValue.double)),
            "integers": .array(awkwardIntegers.map(PropertyListValue.integer)),
            "flags": .array([.bool(true), .bool(false)]),
            "data": .array([.data(Data()), .data(Data([0, 1, 2, 0xFF])), .data(Data("hello".utf8))]),
            "dates": .array([.date(Date(timeIntervalSinceReferenceDate: 0)),
                             .date(Date(timeIntervalSinceReferenceDate: 736_560_000.5)),
                             .date(Date(timeIntervalSinceReferenceDate: -1e9 / 3))]),
            "Nested é": .dictionary(["": .array([]), "x": .dictionary([:])]),
        ])
    }

    static func awkwardOutcome(idempotency: Bool = true, optionals: Bool = true) -> IntentOutcome {
        let row = RowChange(table: "tasks", operation: .update, rowID: 3,
                            old: ["id": .text("task-3"), "completed": 0, "score": .real(0.1), "note": .null,
                                  "blob": .blob(Data([0, 0xFE])), "empty": .blob(Data()), "Z": .text("\"/\\")],
                            new: ["id": .text("task-3"), "completed": 1, "score": .real(-2.5e-5), "note": .text("é\n"),
                                  "blob": .blob(Data()), "empty": .integer(Int64.min), "Z": .integer(Int64.max)])
        let inserted = RowChange(table: "log", operation: .insert, rowID: Int64.max, old: nil, new: ["n": 1])
        let deleted = RowChange(table: "t\"é", operation: .delete, rowID: -4, old: [:], new: nil)
        let keys = [
            KeyChange(suite: "group.a", key: "last", old: nil, new: .string("task-3")),
            KeyChange(suite: "group.a", key: "gone", old: awkwardPropertyList(), new: nil),
            KeyChange(suite: "group.b", key: "both\u{0}", old: .integer(-1), new: .double(1e-7)),
        ]
        let planned = [
            PlannedReload(instanceID: "list-1", kind: "TaskList", reason: .interactiveIntent, deferredByBudget: false),
            PlannedReload(instanceID: "p/2", kind: "Progress \"x\"", reason: .kindReload, deferredByBudget: true),
        ]
        let records = [
            ReloadRecord(configurationKey: "[\"TaskList\",{}]", reason: .interactiveIntent,
                         ranAt: Date(timeIntervalSinceReferenceDate: 736_560_000.25), instanceIDs: ["list-1", "x"],
                         chargedInstanceIDs: [], outcome: "accepted"),
            ReloadRecord(configurationKey: "k", reason: .allReload, ranAt: Date(timeIntervalSinceReferenceDate: 1),
                         instanceIDs: [], chargedInstanceIDs: ["x"], outcome: "rejected: budget \n spent"),
        ]
        return IntentOutcome(
            intentName: "CompleteTaskIntent", parameters: awkwardJSON().objectValue!,
            instanceID: optionals ? "list-1" : nil, value: optionals ? awkwardJSON() : nil,
            dialog: optionals ? "Done: \"task-3\" ✓" : nil, changes: ChangeSet(rows: [row, inserted, deleted], keys: keys),
            requestedReloads: ["Progress", "*", ""], plannedReloads: planned, reloads: records,
            reloadFailure: optionals ? "provider threw\tbadly" : nil, isDryRun: !optionals,
            idempotency: idempotency ? IdempotencyInfo(key: "tap-\u{1F}-ü", isReplay: false,
                                                      firstPerformedAt: Date(timeIntervalSinceReferenceDate: 736_560_000.123),
                                                      expiresAt: Date(timeIntervalSinceReferenceDate: 736_646_400.123))
                : nil,
            performedAt: Date(timeIntervalSinceReferenceDate: 736_560_000.123))
    }

    @Test(arguments: [(true, true), (false, false), (true, false), (false, true)])
    func storedOutcomeIsJSONEncodersBytes(idempotency: Bool, optionals: Bool) throws {
        let outcome = Self.awkwardOutcome(idempotency: idempotency, optionals: optionals)
        let fast = try outcome.storedJSON()
        let reference = try Self.encoder().encode(outcome)
        #expect(String(decoding: fast, as: UTF8.self) == String(decoding: reference, as: UTF8.self))
    }

    @Test
    func storedOutcomeDecodesToAnEqualOutcome() throws {
        // Round trip through the stored form; JSONValue doubles that are whole numbers come back as integers, as
        // they always have through JSON, so compare with what JSONEncoder's bytes decode to as well.
        let outcome = Self.awkwardOutcome()
        let decoded = try JSONDecoder().decode(IntentOutcome.self, from: outcome.storedJSON())
        let viaEncoder = try JSONDecoder().decode(IntentOutcome.self, from: Self.encoder().encode(outcome))
        #expect(decoded == viaEncoder)
        #expect(decoded.changes == outcome.changes, "rows and keys keep every value's exact type")
        #expect(decoded.idempotency == outcome.idempotency)
        #expect(decoded.performedAt == outcome.performedAt)
        #expect(decoded.plannedReloads == outcome.plannedReloads)
        #expect(decoded.reloads == outcome.reloads)
        #expect(decoded.dialog == outcome.dialog)
        #expect(decoded.instanceID == outcome.instanceID)
    }

    @Test("changes as capture records them (table order, shared names) store as JSONEncoder writes them")
    func recordedChangesStoreAsJSONEncodersBytes() throws {
        let store = try DatabaseStore.inMemory()
        try store.write { db in
            try db.execute("CREATE TABLE task(zeta TEXT, id INTEGER PRIMARY KEY, \"é\" REAL, Alpha BLOB, a TEXT)")
        }
        let (_, changes) = try store.writeCapturingChanges { db in
            try db.execute("INSERT INTO task(zeta, \"é\", Alpha, a) VALUES ('z\"', 1.5, x'00ff', NULL)")
            try db.execute("UPDATE task SET zeta = 'é/\\', a = 'x'")
            try db.execute("DELETE FROM task")
        }
        #expect(changes.rows.map(\.operation) == [.insert, .update, .delete])
        var outcome = Self.awkwardOutcome()
        outcome.changes = changes
        let fast = try outcome.storedJSON()
        #expect(String(decoding: fast, as: UTF8.self)
                == String(decoding: try Self.encoder().encode(outcome), as: UTF8.self))
        #expect(try JSONDecoder().decode(IntentOutcome.self, from: fast).changes == changes)
    }

    @Test
    func nonFiniteDoublesAreRefusedAsJSONEncoderRefusesThem() {
        for bad in [Double.nan, .infinity, -.infinity] {
            var outcome = Self.awkwardOutcome()
            outcome.changes = ChangeSet(keys: [KeyChange(suite: "s", key: "k", old: nil, new: .double(bad))])
            #expect(throws: EncodingError.self) { try outcome.storedJSON() }
            #expect(throws: EncodingError.self) { try Self.encoder().encode(outcome) }
        }
    }

    @Test
    func canonicalTextIsJSONEncodersBytes() throws {
        var values: [JSONValue] = [Self.awkwardJSON(), .null, .bool(true), .object([:]), .array([])]
        values += Self.awkwardStrings.map(JSONValue.string)
        values += Self.awkwardDoubles.map(JSONValue.double) + Self.awkwardIntegers.map(JSONValue.int)
        var generator = SplitMix(seed: 5)
        for _ in 0..<200 { values.append(generator.jsonValue(depth: 3)) }
        for value in values {
            let reference = String(decoding: try Self.encoder().encode(value), as: UTF8.self)
            #expect(value.canonicalText == reference)
        }
    }

    @Test("a key's request text is JSONEncoder's bytes of intent, parameters, instance and control")
    func requestTextIsJSONEncodersBytes() throws {
        var generator = SplitMix(seed: 23)
        for (index, string) in Self.awkwardStrings.enumerated() {
            var parameters: [String: JSONValue] = [string: generator.jsonValue(depth: 2), "p": .string(string)]
            if index.isMultiple(of: 3) { parameters = [:] }
            let instanceID: String? = index.isMultiple(of: 2) ? nil : string
            var request = PerformRequest(intentName: "Intent \(string)", parameters: parameters, instanceID: instanceID)
            if index.isMultiple(of: 4) { request.controlID = string + "-control" }
            var fields: [String: JSONValue] = [
                "intent": .string(request.intentName), "parameters": .object(parameters),
                "instance": instanceID.map(JSONValue.string) ?? .null,
            ]
            if let control = request.controlID { fields["control"] = .string(control) }
            let reference = String(decoding: try Self.encoder().encode(JSONValue.object(fields)), as: UTF8.self)
            #expect(IdempotencyLedger.requestText(request) == reference)
        }
    }

    @Test
    func canonicalTextRoundTrips() throws {
        // Whole-number doubles read back as integers (JSON has one number type), so these values have none.
        var generator = SplitMix(seed: 11, wholeDoubles: false)
        for _ in 0..<200 {
            let value = generator.jsonValue(depth: 3)
            #expect(try JSONValue(parsing: value.canonicalText) == value)
        }
    }
}

/// A small deterministic generator of awkward JSON values.
private struct SplitMix {
    var state: UInt64
    /// Whether doubles may be whole numbers (`3.0`, `1e300`).
    let wholeDoubles: Bool

    init(seed: UInt64, wholeDoubles: Bool = true) {
        state = seed
        self.wholeDoubles = wholeDoubles
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func string() -> String {
        let pieces = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\u{0}", "\u{1B}", "\u{7F}", "é", "ß", "日", "🙂", "\u{301}"]
        return (0..<Int(next() % 6)).map { _ in pieces[Int(next() % UInt64(pieces.count))] }.joined()
    }

    mutating func jsonValue(depth: Int) -> JSONValue {
        switch next() % (depth > 0 ? 8 : 6) {
        case 0: return .null
        case 1: return .bool(next() % 2 == 0)
        case 2: return .int(Int(truncatingIfNeeded: next()) >> Int(next() % 64))
        case 3:
            let double = Double(bitPattern: next())
            if double.isFinite, wholeDoubles || double.rounded() != double { return .double(double) }
            return .double(Double(Int64(truncatingIfNeeded: next() % 2_000_000)) - 1_000_000.75)
        case 4, 5: return .string(string())
        case 6: return .array((0..<Int(next() % 4)).map { _ in jsonValue(depth: depth - 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int(next() % 5) { members[string()] = jsonValue(depth: depth - 1) }
            return .object(members)
        }
    }
}
