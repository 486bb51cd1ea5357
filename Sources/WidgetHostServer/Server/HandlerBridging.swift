/// How an MHD worker thread (synchronous) waits for an `async` handler.
public enum HandlerBridging: Sendable, Hashable {
    /// The default. The worker suspends the connection (`MHD_suspend_connection`), starts the handler in
    /// a `Task` and goes back to other connections; when the task finishes it resumes the connection
    /// (`MHD_resume_connection`) and MHD calls back to queue the response. Slow handlers do not hold a
    /// worker thread, so they do not limit concurrency to the thread-pool size.
    case suspendResume
    /// The worker blocks on a semaphore while the handler's `Task` runs. Slightly less work per request,
    /// but each in-flight request holds one of the pool's threads, so a slow handler stalls every
    /// connection that thread serves.
    case blockWorker
}
