import Foundation
import SharedState
import Testing
import WidgetHost
import WidgetHostTesting

/// A perform that throws leaves no trace, and takes nothing else down with it.
@Suite("Intent failures")
struct IntentFailureTests {
    @Test
    func throwingIntentLeavesNoTrace() async throws {
        let harness = try IntentTestSupport.makeHarness()
        // The harness hands a test the intent's own error; the runner (as the API) answers the IntentError.
        await #expect(throws: FailAfterWritingIntent.Refused.self) {
            try await harness.perform("FailAfterWritingIntent")
        }
        let error = await #expect(throws: IntentError.self) {
            try await harness.runner.perform("FailAfterWritingIntent")
        }
        #expect(error == .performFailed(intent: "FailAfterWritingIntent", message: "refused on purpose"))
        #expect(try harness.defaultsValue(forKey: "count.failing") == nil)
        #expect(try IntentTestSupport.logRows(harness).isEmpty)
        let keys = try harness.read { db in
            try db.scalar("SELECT COUNT(*) FROM widgethost_intent_keys", as: Int.self)
        }
        #expect(keys == 0)
    }

    @Test
    func failureInsideABatchRollsBackOnlyItself() async throws {
        let harness = try IntentTestSupport.makeHarness()
        // Enough concurrent performs that several share each transaction.
        let results = await withTaskGroup(of: Result<IntentOutcome, any Error>.self) { group in
            for index in 0..<40 {
                group.addTask {
                    do {
                        return .success(index.isMultiple(of: 4)
                            ? try await harness.perform("FailAfterWritingIntent", ["counter": "a"])
                            : try await harness.perform("CountIntent", ["counter": "a"]))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.filter { (try? $0.get()) == nil }.count == 10)
        #expect(try IntentTestSupport.counter(harness, "a") == 30)
        #expect(try IntentTestSupport.logRows(harness) == ["a": 30])
    }

    @Test
    func writingAnotherGroupOfTheEngineFailsThePerform() async throws {
        let harness = try IntentTestSupport.makeHarness()
        let other = try AppGroupContainer.inMemory(identifier: "group.widgethost.intent-tests.other")
        let engine = WidgetEngine(catalog: WidgetCatalog(), store: try EngineStore.inMemory(),
                                  containers: [harness.container, other])
        let runner = try IntentRunner(engine: engine, intents: IntentTestSupport.intents, container: harness.container)
        await #expect(throws: IntentError.writeOutsideTransaction(intent: "WriteOtherGroupIntent",
                                                                  group: "group.widgethost.intent-tests.other")) {
            try await runner.perform("WriteOtherGroupIntent")
        }
        #expect(try harness.defaultsValue(forKey: "count.mine") == nil, "its own group's write is rolled back too")
        #expect(try other.suite().readValue(forKey: "elsewhere") == nil)
    }
}
