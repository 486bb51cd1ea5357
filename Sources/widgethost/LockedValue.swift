import Foundation

/// A value shared between the main thread, tasks and signal handlers, guarded by a lock.
final class LockedValue<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read or written inside `update`, under `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    func update<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
