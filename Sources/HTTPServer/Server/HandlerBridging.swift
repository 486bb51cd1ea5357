/// How an MHD worker thread (synchronous) runs an `async` handler.
///
/// Handlers registered with ``HTTPRouter/addSynchronous(_:_:handler:)`` do not go through any of these: the worker
/// calls them directly, with no task at all.
///
/// Server CPU time per `/healthz` request under `wrk -t2 -c50 -d5s` (release build, 2 cores shared with
/// other work, so absolute figures are high): `inlineThenSuspend` about 40 µs, `suspendResume` about
/// 70 µs, `blockWorker` about 88 µs. The last two pay a thread hop per request.
public enum HandlerBridging: Sendable, Hashable {
    /// The default. The handler's task starts on the worker thread itself (a task executor that runs
    /// the first job inline). A handler that returns without suspending is answered at once, with no
    /// thread hop. One that suspends continues on Swift's global executor while the connection is
    /// suspended (`MHD_suspend_connection`), freeing the worker; when it finishes the connection is
    /// resumed (`MHD_resume_connection`) and the response queued. CPU-heavy synchronous work in a
    /// handler does occupy the worker until its first suspension.
    case inlineThenSuspend
    /// The handler always runs in a new `Task` on the global executor; the worker suspends the
    /// connection (unless the task already finished) and goes back to other connections.
    case suspendResume
    /// The worker blocks on a semaphore while the handler's `Task` runs on the global executor. Each
    /// in-flight request holds one pool thread, so a slow handler stalls every connection that thread
    /// serves; kept for comparison.
    case blockWorker
}
