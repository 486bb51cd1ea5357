import AppIntents
import Foundation
import Testing

@Suite("Intent results and parameter values")
struct IntentResultTests {
    @Test("result(value:dialog:) carries both, readable through any IntentResult")
    func resultContents() async throws {
        let host = TestHost(appGroups: ["group.com.example.tasks"])
        host.storage("group.com.example.tasks")?.set(["a", "b"], forKey: "completedTaskIDs")
        let result = try await HostContext.withBinding(host) { try await CountCompletedIntent().perform() }
        let erased: any IntentResult = result
        #expect(erased.returnedValue as? Int == 2)
        #expect(erased.returnedDialog?.full.defaultValue == "2 tasks done")
        #expect(erased.followUpIntent == nil)
    }

    @Test("result() carries nothing")
    func emptyResult() async throws {
        let result: any IntentResult = try await SelectProjectIntent().perform()
        #expect(result.returnedValue == nil)
        #expect(result.returnedDialog == nil)
    }

    @Test("a result type of one's own reports no parts; .result(value:) reports its value")
    func ownResultType() {
        struct Acknowledged: IntentResult {}
        let own: any IntentResult = Acknowledged()
        #expect(own.returnedValue == nil)
        #expect(own.returnedDialog == nil)
        #expect(own.followUpIntent == nil)
        let some: any IntentResult = IntentResultContainer<String, Never, Never, Never>.result(value: "done")
        #expect(some.returnedValue as? String == "done")
    }

    @Test(
        "parameter values encode to plain JSON and back",
        arguments: [
            (IntentParameterValue.bool(true), "true"),
            (.int(3), "3"),
            (.double(2.5), "2.5"),
            (.string("x"), "\"x\""),
            (.null, "null"),
            (.date(Date(timeIntervalSince1970: 1_714_550_400)), "{\"date\":\"2024-05-01T08:00:00Z\"}"),
            (.url(URL(string: "https://example.com")!), "{\"url\":\"https:\\/\\/example.com\"}"),
            (.enumCase("high"), "{\"enumCase\":\"high\"}"),
            (.entity(id: "p1"), "{\"entity\":\"p1\"}"),
        ]
    )
    func valueCoding(value: IntentParameterValue, json: String) throws {
        let encoded = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        #expect(encoded == json)
        #expect(try JSONDecoder().decode(IntentParameterValue.self, from: Data(json.utf8)) == value)
    }

    @Test("malformed tagged values are rejected")
    func malformed() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(IntentParameterValue.self, from: Data("{\"date\":\"yesterday\"}".utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(IntentParameterValue.self, from: Data("{\"date\":1,\"url\":\"x\"}".utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(IntentParameterValue.self, from: Data("[1]".utf8))
        }
    }
}
