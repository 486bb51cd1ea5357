import Foundation
import JSON
import Testing
import WidgetHost
import WidgetHostTesting

/// Group commit on the callers' own tasks: whichever caller runs a batch, every caller gets its own perform's answer.
@Suite("Intent batches led by their callers")
struct IntentLeadingTests {
    @Test("16 clients performing in turn each get their own answers, through batches led by one caller after another")
    func everyCallerGetsItsOwnAnswer() async throws {
        let harness = try IntentTestSupport.makeHarness()
        let runner = harness.runner
        let clients = 16
        let performsEach = 8
        let answers = try await withThrowingTaskGroup(of: [String].self) { group in
            for client in 0..<clients {
                group.addTask {
                    var problems: [String] = []
                    for count in 1...performsEach {
                        let key = "lead-\(client)-\(count)"
                        let outcome = try await runner.perform("CountIntent",
                                                               parameters: ["counter": .string("c\(client)")],
                                                               idempotencyKey: key)
                        // The counter is the client's own, so its n-th perform returns n.
                        if outcome.idempotency?.key != key || outcome.value != .int(count) {
                            problems.append("\(key): \(String(describing: outcome.idempotency?.key)), "
                                + "\(String(describing: outcome.value))")
                        }
                    }
                    return problems
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(answers.isEmpty)
        for client in 0..<clients {
            #expect(try IntentTestSupport.counter(harness, "c\(client)") == performsEach)
        }
        let statistics = runner.statistics
        #expect(statistics.performs == clients * performsEach)
        // Grouped: fewer transactions than performs, and more than one batch, so the turn was handed on.
        #expect(statistics.transactions > 1)
        #expect(statistics.transactions < statistics.performs)
    }

    @Test("a caller arriving after the queue ran empty leads its own batch; a failing one does not stop the next")
    func aLoneCallerLeadsAndFailuresPassTheTurnOn() async throws {
        let harness = try IntentTestSupport.makeHarness()
        let runner = harness.runner
        await #expect(throws: IntentError.self) {
            try await runner.perform("FailAfterWritingIntent", parameters: ["counter": .string("x")])
        }
        let outcome = try await runner.perform("CountIntent", parameters: ["counter": .string("x")])
        #expect(outcome.value == .int(1))
        #expect(runner.statistics.performs == 2)
        #expect(runner.statistics.transactions == 2)
    }
}
