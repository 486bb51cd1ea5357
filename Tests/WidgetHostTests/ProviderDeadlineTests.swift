import Foundation
import Synchronization
import Testing
@testable import WidgetHost

/// The batch runner behind the provider time limit: each run in order, each within its own limit.
@Suite("Provider runs of a batch under a time limit each")
struct ProviderDeadlineTests {
    struct Refused: Error {}

    @Test("runs that hang are given up on at their own limit and cancelled; the runs after them still run, in order")
    func hangsAndFailures() async throws {
        let cancelled = Mutex(0)
        let order = Mutex<[Int]>([])
        let clock = ContinuousClock()
        let started = clock.now
        let results = await ProviderDeadline.runEach(Array(0..<6), limit: .milliseconds(200)) { input in
            order.withLock { $0.append(input) }
            if input == 1 || input == 2 {
                do { try await Task.sleep(for: .seconds(3600)) } catch { cancelled.withLock { $0 += 1 } }
                return -1
            }
            if input == 4 { throw Refused() }
            return input * 10
        }
        let elapsed = clock.now - started
        #expect(elapsed >= .milliseconds(400) && elapsed < .seconds(30), "two limits waited, not an hour: \(elapsed)")
        #expect(order.withLock { $0 } == [0, 1, 2, 3, 4, 5])
        #expect(results.count == 6)
        #expect((try? results[0].get()) == 0 && (try? results[3].get()) == 30 && (try? results[5].get()) == 50)
        for index in [1, 2] {
            #expect(throws: ProviderDeadline.Exceeded.self) { try results[index].get() }
        }
        #expect(throws: Refused.self) { try results[4].get() }
        for _ in 0..<200 where cancelled.withLock({ $0 }) < 2 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(cancelled.withLock { $0 } == 2, "each hung run's task was cancelled")
    }

    @Test("an empty batch returns at once; a quick batch does not wait for the limit")
    func quickBatches() async {
        #expect(await ProviderDeadline.runEach([Int](), limit: .seconds(60)) { $0 }.isEmpty)
        let clock = ContinuousClock()
        let started = clock.now
        let results = await ProviderDeadline.runEach(Array(0..<500), limit: .seconds(60)) { $0 + 1 }
        #expect(clock.now - started < .seconds(30))
        #expect(results.compactMap { try? $0.get() } == Array(1...500))
    }
}
