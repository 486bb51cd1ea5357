import Foundation

/// A mutual-exclusion gate that may be released from another thread than the one that took it,
/// and that async holders wait for without blocking a thread.
///
/// `NSLock` must be unlocked by the thread that locked it, which rules it out for a write session
/// whose holder suspends (and resumes on another thread) while it holds the writer. Here the lock
/// only guards the gate's own state for a few instructions; "held" is a flag.
///
/// Synchronous waiters block on the condition; async waiters queue a continuation and are handed
/// the gate directly on release, first come first served, before synchronous waiters.
///
/// `@unchecked Sendable` is safe here because `isHeld` and `asyncWaiters` are only read or
/// changed while holding `condition`'s lock.
final class WriterGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var isHeld = false
    private var asyncWaiters: [CheckedContinuation<Void, Never>] = []

    /// Takes the gate, blocking the calling thread while another holder has it.
    func acquire() {
        condition.lock()
        while isHeld { condition.wait() }
        isHeld = true
        condition.unlock()
    }

    /// Takes the gate, suspending (not blocking) while another holder has it.
    func acquireAsync() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            if isHeld {
                asyncWaiters.append(continuation)
                condition.unlock()
            } else {
                isHeld = true
                condition.unlock()
                continuation.resume()
            }
        }
    }

    /// Gives the gate to the next async waiter, or frees it for a synchronous one.
    func release() {
        condition.lock()
        precondition(isHeld, "WriterGate released while not held")
        if asyncWaiters.isEmpty {
            isHeld = false
            condition.signal()
            condition.unlock()
        } else {
            // Ownership passes straight to the waiter: `isHeld` stays true.
            let next = asyncWaiters.removeFirst()
            condition.unlock()
            next.resume()
        }
    }
}
