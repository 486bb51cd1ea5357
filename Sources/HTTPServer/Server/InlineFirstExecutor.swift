import Foundation

/// A task executor that runs a handler task's first job on the thread that starts it (an MHD worker),
/// and every later job on the global concurrent executor.
///
/// Most handlers never suspend (they compute or read and return), so with this executor they finish
/// inside `Task.init` on the worker thread: no thread hop, no suspend/resume round trip. A handler that
/// does suspend (sleeps, awaits an actor or I/O) continues on the global executor while the connection
/// is suspended, as with ``HandlerBridging/suspendResume``.
///
/// Only the job enqueued while the calling thread has ``runFirstJobInline(_:)`` open runs inline; jobs
/// enqueued while that job runs (child tasks) go to the global executor, so jobs never nest.
final class InlineFirstExecutor: TaskExecutor {
    static let shared = InlineFirstExecutor()

    /// Per-thread flag: the next job enqueued from this thread may run inline.
    private static let armedKey: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
        return key
    }()

    private static var isArmed: Bool {
        get { pthread_getspecific(armedKey) != nil }
        set { pthread_setspecific(armedKey, newValue ? UnsafeRawPointer(bitPattern: 1) : nil) }
    }

    /// Runs `start` (which creates the task) with the inline slot open on this thread.
    func runFirstJobInline(_ start: () -> Void) {
        Self.isArmed = true
        start()
        Self.isArmed = false
    }

    func enqueue(_ job: consuming ExecutorJob) {
        if Self.isArmed {
            Self.isArmed = false
            job.runSynchronously(on: asUnownedTaskExecutor())
        } else {
            globalConcurrentExecutor.enqueue(job)
        }
    }
}
