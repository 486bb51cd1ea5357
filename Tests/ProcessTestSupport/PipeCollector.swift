import Foundation

/// Reads a child process's output pipe on a thread of its own until end of file, so that a test can
/// watch the output grow while the child runs and then take all of it.
///
/// Not `FileHandle.readabilityHandler`: that handler is a dispatch source, and the pipe's descriptor is
/// closed when its handle goes away, possibly before the source's cancellation has run. libdispatch then
/// still watches a number that another thread may have been given since (a socket, a database file), and
/// its event loop crashed on it (`_dispatch_event_loop_drain`, seen in full `swift test` runs).
public final class PipeCollector: @unchecked Sendable {
    // @unchecked Sendable: `data` is only touched under `lock`.
    private let lock = NSLock()
    private var data = Data()
    private let finished = DispatchSemaphore(value: 0)

    /// Starts reading `pipe` until its write end is closed in every process (the child exited or was killed).
    public init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread { [self] in
            // `read(2)` itself: it returns what has arrived, where `FileHandle.read(upToCount:)` waits for
            // the whole count or the end.
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                lock.withLock { data.append(contentsOf: buffer[0..<count]) }
            }
            withExtendedLifetime(handle) {}
            finished.signal()
        }.start()
    }

    /// What has been read so far.
    public var collected: Data { lock.withLock { data } }

    /// Waits for end of file and returns everything read.
    public func waitForEnd() -> Data {
        finished.wait()
        return collected
    }
}
