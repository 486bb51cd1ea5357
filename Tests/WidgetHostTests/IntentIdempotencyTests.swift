import Foundation
import SharedState
import Testing
import WidgetHost
import WidgetHostTesting

/// Retries with one idempotency key run once; keys bind to their request and expire after the retention.
@Suite("Intent idempotency")
struct IntentIdempotencyTests {
    @Test
    func retriesWithOneKeyRunOnce() async throws {
        let harness = try IntentTestSupport.makeHarness()
        let first = try await harness.perform("CountIntent", ["counter": "a", "amount": 5], idempotencyKey: "tap-1")
        #expect(first.idempotency?.isReplay == false)
        #expect(first.idempotency?.expiresAt == harness.now.addingTimeInterval(IntentRunner.defaultIdempotencyRetention))
        for _ in 0..<3 {
            let retry = try await harness.perform("CountIntent", ["counter": "a", "amount": 5], idempotencyKey: "tap-1")
            #expect(retry.isReplay)
            #expect(retry.value == first.value)
            #expect(retry.changes == first.changes)
            #expect(retry.reloads.isEmpty)
        }
        #expect(try IntentTestSupport.counter(harness, "a") == 5)
        #expect(try IntentTestSupport.logRows(harness) == ["a": 1])
    }

    @Test
    func concurrentRetriesWithOneKeyRunOnce() async throws {
        let harness = try IntentTestSupport.makeHarness()
        let outcomes = try await withThrowingTaskGroup(of: IntentOutcome.self) { group in
            for _ in 0..<12 {
                group.addTask { try await harness.perform("CountIntent", ["counter": "b"], idempotencyKey: "same") }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { !$0.isReplay }.count == 1)
        #expect(Set(outcomes.map(\.changes)).count == 1, "every retry reports the first outcome's changes")
        #expect(try IntentTestSupport.counter(harness, "b") == 1)
    }

    @Test
    func aKeyIsBoundToItsRequest() async throws {
        let harness = try IntentTestSupport.makeHarness()
        try await harness.perform("CountIntent", ["counter": "a"], idempotencyKey: "k")
        await #expect(throws: IntentError.idempotencyKeyReused(intent: "CountIntent", key: "k")) {
            try await harness.perform("CountIntent", ["counter": "other"], idempotencyKey: "k")
        }
        #expect(try IntentTestSupport.counter(harness, "other") == 0)
    }

    @Test
    func keysExpireAfterTheRetention() async throws {
        let harness = try IntentTestSupport.makeHarness()
        try await harness.perform("CountIntent", ["counter": "a"], idempotencyKey: "k")
        try await harness.advanceClock(by: IntentRunner.defaultIdempotencyRetention - 1)
        #expect(try await harness.perform("CountIntent", ["counter": "a"], idempotencyKey: "k").isReplay)
        try await harness.advanceClock(by: 1)
        let late = try await harness.perform("CountIntent", ["counter": "a"], idempotencyKey: "k")
        #expect(!late.isReplay, "an expired key runs again")
        #expect(try IntentTestSupport.counter(harness, "a") == 2)
        // Expired entries are purged, not kept forever.
        let stored = try harness.read { db in try db.scalar("SELECT COUNT(*) FROM widgethost_intent_keys", as: Int.self) }
        #expect(stored == 1)
    }

    @Test
    func failedPerformsRecordNoKeySoTheirRetryRuns() async throws {
        let harness = try IntentTestSupport.makeHarness()
        await #expect(throws: FailAfterWritingIntent.Refused.self) {
            try await harness.perform("FailAfterWritingIntent", idempotencyKey: "f")
        }
        await #expect(throws: FailAfterWritingIntent.Refused.self) {
            try await harness.perform("FailAfterWritingIntent", idempotencyKey: "f")
        }
        let stored = try harness.read { db in try db.scalar("SELECT COUNT(*) FROM widgethost_intent_keys", as: Int.self) }
        #expect(stored == 0)
    }

    @Test
    func keysSurviveReopeningTheContainer() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("IntentIdempotencyTests-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await IntentTestSupport.makeHarness(storage: .directory(directory))
            .perform("CountIntent", ["counter": "a"], idempotencyKey: "k")
        let reopened = try IntentTestSupport.makeHarness(storage: .directory(directory))
        let retry = try await reopened.perform("CountIntent", ["counter": "a"], idempotencyKey: "k")
        #expect(retry.isReplay)
        #expect(retry.changes == first.changes)
        #expect(try IntentTestSupport.counter(reopened, "a") == 1)
    }
}
