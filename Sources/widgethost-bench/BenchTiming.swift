import Foundation

/// The timing and threading the benchmark cases share.
enum BenchTiming {
    /// How long `body` takes, on the monotonic clock.
    static func time(_ body: () throws -> Void) rethrows -> Duration {
        let clock = ContinuousClock()
        let began = clock.now
        try body()
        return clock.now - began
    }

    /// The median of `runs` timings of `body`.
    static func median(of runs: Int, _ body: () -> Void) -> Duration {
        var times: [Duration] = []
        for _ in 0..<runs { times.append(time(body)) }
        return times.sorted()[runs / 2]
    }

    /// Runs `body(0)` … `body(count - 1)` on threads at once and waits for all of them.
    /// - Throws: The first error any of them threw.
    static func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) throws {
        let failures = FirstError()
        DispatchQueue.concurrentPerform(iterations: count) { index in
            do { try body(index) } catch { failures.keep(error) }
        }
        if let error = failures.error { throw error }
    }
}

/// The first error of several threads.
private final class FirstError: @unchecked Sendable {
    // @unchecked Sendable: `stored` is only read and written under `lock`.
    private let lock = NSLock()
    private var stored: (any Error)?

    func keep(_ error: any Error) {
        lock.lock()
        if stored == nil { stored = error }
        lock.unlock()
    }

    var error: (any Error)? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
