// This file imports Foundation as well as WidgetKit, as iOS widget code does: it proves that
// `UserDefaults(suiteName: "group.…")` still resolves to WidgetHost's class.
import Foundation
import Testing
import WidgetKit

@Suite("App Group UserDefaults")
struct UserDefaultsTests {
    @Test("UserDefaults(suiteName:) resolves to ours and writes to the bound host's suite")
    func overloadWinsAndHitsBinding() throws {
        let host = TestHost(appGroups: ["group.test"])
        HostContext.withBinding(host) {
            let defaults = UserDefaults(suiteName: "group.test")
            // `isHostManaged` exists only on HostBridge.UserDefaults: this line compiling is the proof.
            #expect(defaults?.isHostManaged == true)
            defaults?.set(5, forKey: "count")
            defaults?.set("five", forKey: "name")
        }
        let storage = try #require(host.storage("group.test"))
        #expect(storage.object(forKey: "count") as? Int == 5)
        #expect(storage.object(forKey: "name") as? String == "five")
    }

    @Test("typed getters convert like Foundation's")
    func typedGetters() throws {
        let storage = InMemoryDefaultsStorage()
        let defaults = HostBridge.UserDefaults(storage: storage, suiteName: "group.typed")
        defaults.set(3, forKey: "int")
        defaults.set(2.75, forKey: "double")
        defaults.set(true, forKey: "bool")
        defaults.set("42", forKey: "numericString")
        defaults.set(["a", "b"], forKey: "strings")
        defaults.set(["k": 1], forKey: "dictionary")
        defaults.set(Data([1, 2]), forKey: "data")
        defaults.set(URL(string: "https://example.com/x"), forKey: "url")
        defaults.set(Int32(7) as Any?, forKey: "int32")
        defaults.set(Float(1.5), forKey: "float")

        #expect(defaults.integer(forKey: "int") == 3)
        #expect(defaults.integer(forKey: "double") == 2)
        #expect(defaults.integer(forKey: "numericString") == 42)
        #expect(defaults.integer(forKey: "missing") == 0)
        #expect(defaults.double(forKey: "int") == 3)
        #expect(defaults.bool(forKey: "bool"))
        #expect(defaults.bool(forKey: "int"))
        #expect(defaults.bool(forKey: "missing") == false)
        #expect(defaults.string(forKey: "int") == "3")
        #expect(defaults.stringArray(forKey: "strings") == ["a", "b"])
        #expect(defaults.stringArray(forKey: "dictionary") == nil)
        #expect(defaults.dictionary(forKey: "dictionary")?["k"] as? Int == 1)
        #expect(defaults.data(forKey: "data") == Data([1, 2]))
        #expect(defaults.url(forKey: "url") == URL(string: "https://example.com/x"))
        #expect(storage.object(forKey: "int32") as? Int == 7)
        #expect(defaults.float(forKey: "float") == 1.5)

        defaults.set(nil, forKey: "int")
        #expect(defaults.object(forKey: "int") == nil)
        defaults.removeObject(forKey: "double")
        #expect(defaults.object(forKey: "double") == nil)
        defaults.register(defaults: ["int": 9])
        #expect(defaults.integer(forKey: "int") == 9)
        #expect(defaults.dictionaryRepresentation()["int"] as? Int == 9)
        #expect(defaults.synchronize())
    }

    @Test("a group the host does not manage falls back to Foundation's UserDefaults")
    func fallsBackToFoundation() throws {
        let suite = "group.widgethost.fallback.\(UUID().uuidString)"
        let host = TestHost(appGroups: ["group.test"])
        try HostContext.withBinding(host) {
            let defaults = try #require(UserDefaults(suiteName: suite))
            #expect(defaults.isHostManaged == false)
            defaults.set("kept by Foundation", forKey: "probe")
        }
        let foundationSuite = Foundation.UserDefaults(suiteName: suite)
        let foundation = try #require(foundationSuite)
        #expect(foundation.string(forKey: "probe") == "kept by Foundation")
        foundation.removeObject(forKey: "probe")
        #expect(host.storage("group.test")?.dictionaryRepresentation().isEmpty == true)
    }

    @Test("an instance kept across calls serves whichever host is bound at the call")
    func perCallLookup() throws {
        let first = TestHost(appGroups: ["group.shared"])
        let second = TestHost(appGroups: ["group.shared"])
        let defaults = try #require(HostContext.withBinding(first) { UserDefaults(suiteName: "group.shared") })
        HostContext.withBinding(second) { defaults.set(1, forKey: "seen") }
        defaults.set(2, forKey: "unbound")
        #expect(second.storage("group.shared")?.object(forKey: "seen") as? Int == 1)
        #expect(first.storage("group.shared")?.object(forKey: "seen") == nil)
        // Unbound at the call: the host bound at creation still serves it.
        #expect(first.storage("group.shared")?.object(forKey: "unbound") as? Int == 2)
    }

    @Test("an interactive intent's writes land in the bound App Group")
    func intentWrites() async throws {
        let host = TestHost(appGroups: ["group.com.example.tasks"])
        try await HostContext.withBinding(host) {
            _ = try await CompleteTaskIntent(taskID: "t1").perform()
            _ = try await CompleteTaskIntent(taskID: "t2").perform()
            _ = try await CompleteTaskIntent(taskID: "t1").perform()
        }
        let storage = try #require(host.storage("group.com.example.tasks"))
        #expect(storage.object(forKey: "completedTaskIDs") as? [String] == ["t1", "t2"])
        #expect(storage.object(forKey: "lastCompletion") is Date)
    }

    @Test("UserDefaults.standard is still Foundation's")
    func standardIsFoundations() {
        let standard: Foundation.UserDefaults = UserDefaults.standard
        #expect(standard === Foundation.UserDefaults.standard)
    }
}
