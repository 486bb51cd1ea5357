import Foundation
import SharedState
import Testing
import WidgetHost
import WidgetHostTesting

/// Many performers at once on one container lose nothing and apply nothing twice.
@Suite("Intent concurrency")
struct IntentConcurrencyTests {
    static let performers = 16
    static let performsEach = 1_000

    /// 16 performers × 1,000 performs: each bumps its own counter and the shared one (read-modify-write through
    /// `UserDefaults`), logs a row, and every tenth one throws after writing. The end state is exact.
    @Test(.timeLimit(.minutes(2)))
    func sixteenPerformersEndInTheExactExpectedState() async throws {
        // synchronous = NORMAL: durability across power loss is not what this test checks (the kill test does
        // process crashes with FULL); NORMAL keeps its 1,000-odd commits from being fsync-bound.
        let harness = try IntentTestSupport.makeHarness(synchronous: .normal)
        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            for performer in 0..<Self.performers {
                group.addTask {
                    var failed = 0
                    for index in 0..<Self.performsEach {
                        if index % 10 == 9 {
                            do {
                                try await harness.perform("FailAfterWritingIntent", ["counter": "p\(performer)"])
                            } catch is FailAfterWritingIntent.Refused {
                                failed += 1
                            }
                        } else {
                            try await harness.perform("CountIntent", ["counter": "p\(performer)"],
                                                      idempotencyKey: index % 3 == 0 ? "p\(performer)-\(index)" : nil)
                        }
                    }
                    return failed
                }
            }
            return try await group.reduce(0, +)
        }
        let succeededEach = Self.performsEach - Self.performsEach / 10
        #expect(failures == Self.performers * Self.performsEach / 10)
        for performer in 0..<Self.performers {
            #expect(try IntentTestSupport.counter(harness, "p\(performer)") == succeededEach)
        }
        #expect(try IntentTestSupport.counter(harness, "all") == Self.performers * succeededEach)
        let rows = try IntentTestSupport.logRows(harness)
        #expect(rows.count == Self.performers)
        #expect(rows.values.allSatisfy { $0 == succeededEach })
    }
}
