import Foundation
import Testing
@testable import SharedState

@Suite("DefaultsSuite")
struct DefaultsSuiteTests {
    static let samples: [PropertyListValue] = [
        .string("héllo"), .string(""), .integer(0), .integer(.max), .integer(.min), .double(0.1 + 0.2),
        .double(-0.0), .double(.infinity), .bool(true), .bool(false), .data(Data()), .data(Data([0, 255, 7])),
        .date(Date(timeIntervalSinceReferenceDate: 123.456789)), .array([]), .dictionary([:]),
        .array([1, 1.0, true, "1", .data(Data([1])), .date(Date(timeIntervalSince1970: 0))]),
        .dictionary(["nested": ["deep": [.array([.integer(1), .dictionary(["x": .bool(false)])])]], "n": .double(.nan)]),
    ]

    @Test(arguments: StoreKind.allCases)
    func valuesRoundTripWithTheirExactType(kind: StoreKind) throws {
        try withContainer(kind) { container throws in
            let suite = container.suite()
            for (index, sample) in Self.samples.enumerated() {
                suite.set(sample, forKey: "k\(index)")
            }
            for (index, sample) in Self.samples.enumerated() {
                let stored = suite.value(forKey: "k\(index)")
                // NaN is not equal to itself: compare the stored bytes instead.
                #expect(stored?.storageValue == sample.storageValue, "\(sample)")
                #expect(stored?.storageType == sample.storageType)
            }
            // Int, Double and Bool stay distinct on disk.
            suite.set(1, forKey: "int")
            suite.set(1.0, forKey: "double")
            suite.set(true, forKey: "bool")
            let types = try container.store.read { db in
                try db.query("SELECT key, type, typeof(value) AS storage FROM shared_state_defaults WHERE key IN ('int', 'double', 'bool') ORDER BY key")
                    .map { "\($0.string("key")!)=\($0.string("type")!)/\($0.string("storage")!)" }
            }
            #expect(types == ["bool=bool/integer", "double=double/real", "int=integer/integer"])
            #expect(suite.object(forKey: "int") as? Int == 1)
            #expect(suite.object(forKey: "double") as? Double == 1.0)
            #expect(suite.object(forKey: "bool") as? Bool == true)
            #expect(suite.object(forKey: "int") as? Bool == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func userDefaultsShapedSettersAndGetters(kind: StoreKind) throws {
        try withContainer(kind) { container throws in
            let suite = container.suite()
            let date = Date(timeIntervalSince1970: 1_700_000_000)
            suite.set("text", forKey: "string")
            suite.set(42, forKey: "int")
            suite.set(2.5, forKey: "double")
            suite.set(Float(0.5), forKey: "float")
            suite.set(true, forKey: "bool")
            suite.set(Data([1, 2]), forKey: "data")
            suite.set(date, forKey: "date")
            suite.set(URL(fileURLWithPath: "/tmp/file.txt"), forKey: "fileURL")
            suite.set(URL(string: "myapp://task/42?x=1"), forKey: "url")
            suite.set(["a", "b"] as [Any], forKey: "strings")
            suite.set(["a", 1] as [Any], forKey: "mixed")
            suite.set(["k": 1, "d": ["n": true]] as [String: Any], forKey: "dict")
            #expect(suite.string(forKey: "string") == "text")
            #expect(suite.integer(forKey: "int") == 42)
            #expect(suite.double(forKey: "double") == 2.5)
            #expect(suite.float(forKey: "float") == 0.5)
            #expect(suite.bool(forKey: "bool"))
            #expect(suite.data(forKey: "data") == Data([1, 2]))
            #expect(suite.object(forKey: "date") as? Date == date)
            #expect(suite.url(forKey: "fileURL") == URL(fileURLWithPath: "/tmp/file.txt"))
            #expect(suite.string(forKey: "fileURL") == "/tmp/file.txt")
            #expect(suite.url(forKey: "url") == URL(string: "myapp://task/42?x=1"))
            #expect(suite.stringArray(forKey: "strings") == ["a", "b"])
            #expect(suite.stringArray(forKey: "mixed") == nil)
            #expect(suite.array(forKey: "mixed")?.count == 2)
            #expect(suite.dictionary(forKey: "dict")?["k"] as? Int == 1)
            #expect((suite.dictionary(forKey: "dict")?["d"] as? [String: Any])?["n"] as? Bool == true)
            let all = suite.dictionaryRepresentation()
            #expect(Set(all.keys) == ["string", "int", "double", "float", "bool", "data", "date", "fileURL", "url",
                                      "strings", "mixed", "dict"])
            suite.removeObject(forKey: "int")
            #expect(suite.object(forKey: "int") == nil)
            suite.set(nil as Any?, forKey: "string")
            #expect(suite.string(forKey: "string") == nil)
            suite.set(nil as URL?, forKey: "url")
            #expect(suite.url(forKey: "url") == nil)
            #expect(container.suite(named: "other").dictionaryRepresentation().isEmpty)
        }
    }

    /// What Foundation's `UserDefaults` answers on this toolchain (checked with a script against
    /// swift-corelibs-foundation) for a key read as another type.
    @Test(arguments: StoreKind.allCases)
    func readingAsAnotherTypeAnswersLikeUserDefaults(kind: StoreKind) throws {
        try withContainer(kind) { container throws in
            let suite = container.suite()
            suite.set("42", forKey: "s42")
            suite.set("3.5", forKey: "s35")
            suite.set("42abc", forKey: "s42abc")
            suite.set("abc", forKey: "sabc")
            suite.set("YES", forKey: "syes")
            suite.set("0", forKey: "s0")
            suite.set(42, forKey: "i")
            suite.set(3.7, forKey: "d")
            suite.set(-2.9, forKey: "dneg")
            suite.set(0.5, forKey: "half")
            suite.set(true, forKey: "b")
            suite.set(Data([1]), forKey: "data")
            suite.set(Date(timeIntervalSince1970: 0), forKey: "date")
            suite.set(["a"] as [Any], forKey: "arr")

            #expect(suite.integer(forKey: "s42") == 42)
            #expect(suite.integer(forKey: "s35") == 3)
            #expect(suite.integer(forKey: "s42abc") == 42)
            #expect(suite.integer(forKey: "sabc") == 0)
            #expect(suite.integer(forKey: "d") == 3)
            #expect(suite.integer(forKey: "dneg") == -2)
            #expect(suite.integer(forKey: "b") == 1)
            #expect(suite.integer(forKey: "data") == 0)
            #expect(suite.integer(forKey: "missing") == 0)
            #expect(suite.double(forKey: "s35") == 3.5)
            #expect(suite.double(forKey: "i") == 42)
            #expect(suite.double(forKey: "date") == 0)
            #expect(suite.bool(forKey: "syes"))
            #expect(suite.bool(forKey: "s42"))
            #expect(!suite.bool(forKey: "s0"))
            #expect(!suite.bool(forKey: "sabc"))
            #expect(suite.bool(forKey: "half"))
            #expect(suite.bool(forKey: "i"))
            #expect(!suite.bool(forKey: "missing"))
            #expect(!suite.bool(forKey: "arr"))
            #expect(suite.string(forKey: "i") == "42")
            #expect(suite.string(forKey: "d") == "3.7")
            #expect(suite.string(forKey: "b") == "1")
            #expect(suite.string(forKey: "data") == nil)
            #expect(suite.string(forKey: "date") == nil)
            #expect(suite.data(forKey: "s42") == nil)
            #expect(suite.array(forKey: "s42") == nil)
            #expect(suite.dictionary(forKey: "arr") == nil)
            #expect(suite.stringArray(forKey: "i") == nil)
            #expect(suite.url(forKey: "data") == nil, "Linux Foundation crashes here; we answer nil")
            #expect(suite.url(forKey: "sabc") == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func nonPropertyListValuesAreReportedAndNotStored(kind: StoreKind) throws {
        let log = FailureLog()
        try withContainer(kind, onFailure: log.handler) { container throws in
            let suite = container.suite()
            suite.set("before", forKey: "k")
            suite.set(NSObject(), forKey: "k")
            suite.set([1: "int keys"] as [Int: String], forKey: "k")
            suite.set(["ok", ["deeper": NSObject()]] as [Any], forKey: "k")
            suite.set(UInt64.max, forKey: "k")
            #expect(suite.string(forKey: "k") == "before", "a refused value leaves the previous one")
            let failures = log.all
            #expect(failures.count == 4)
            #expect(failures.allSatisfy { $0.operation == .write && $0.key == "k" && $0.underlying is NotAPropertyListError })
            #expect((failures[2].underlying as? NotAPropertyListError)?.location == "[1].deeper")
            #expect(failures[0].description.contains("NSObject"))
            _ = try container.store.write { db in
                #expect(throws: NotAPropertyListError.self) { try suite.set(NSObject(), forKey: "k", in: db) }
            }
        }
    }

    @Test func storageFailuresReachTheHandlerAndReadsAnswerAsMissing() throws {
        let log = FailureLog()
        try withContainer(.onDisk, onFailure: log.handler) { container throws in
            let suite = container.suite()
            suite.set(1, forKey: "k")
            // Break the table underneath the suite, as a corrupt or foreign file would.
            try container.store.write { db in try db.execute("ALTER TABLE shared_state_defaults RENAME TO moved") }
            suite.set(2, forKey: "k")
            #expect(suite.integer(forKey: "k") == 0)
            #expect(log.all.map(\.operation) == [.write, .read])
            #expect(log.all.allSatisfy { $0.underlying is SQLiteError })
            #expect(throws: SQLiteError.self) { try suite.write(.integer(3), forKey: "k") }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func writesInsideTheCallersTransactionCommitOrRollBackWithIt(kind: StoreKind) throws {
        try withContainer(kind) { container throws in
            let suite = container.suite()
            #expect(throws: Rollback.self) {
                try container.store.write { db in
                    try suite.set(.string("rolled back"), forKey: "k", in: db)
                    #expect(try suite.value(forKey: "k", in: db) == "rolled back")
                    throw Rollback()
                }
            }
            #expect(suite.value(forKey: "k") == nil)
            try container.store.write { db in
                try suite.set("committed" as Any?, forKey: "k", in: db)
                try db.execute("CREATE TABLE t(x)")
            }
            #expect(suite.value(forKey: "k") == "committed")
            #expect(try container.store.read { db in try suite.values(in: db) } == ["k": "committed"])
        }
    }
}
