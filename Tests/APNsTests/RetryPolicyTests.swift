import APNs
import Testing

/// The backoff: doubling from the first delay, capped, each a random point in the upper half of its step.
struct RetryPolicyTests {
    @Test func delaysDoubleFromOneSecondUpToSixtyWithJitterInTheUpperHalf() {
        let policy = RetryPolicy.standard
        #expect(policy.maximumAttempts == 8)
        let steps: [(retry: Int, base: Double)] = [(1, 1), (2, 2), (3, 4), (4, 8), (5, 16), (6, 32), (7, 60), (8, 60),
                                                   (40, 60)]
        for (retry, base) in steps {
            var seen = Set<Int64>()
            for _ in 0..<200 {
                let delay = policy.delay(beforeRetry: retry)
                let milliseconds = delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000
                #expect(Double(milliseconds) >= base * 500 - 1 && Double(milliseconds) <= base * 1000,
                        "retry \(retry): \(delay)")
                seen.insert(milliseconds)
            }
            #expect(seen.count > 50, "retry \(retry): the jitter spreads the delays")
        }
    }
}
