import CMicroHTTPD
import Foundation

/// Owns one running libmicrohttpd daemon: epoll, an internal thread pool, suspend/resume enabled, on a
/// listen socket created by ``ListenSocket``.
///
/// Holds a retain on the ``RequestDispatcher`` passed to MHD as the callbacks' context, released once
/// `MHD_stop_daemon` has returned (no callback can run after that).
final class MHDDaemon: @unchecked Sendable {
    // @unchecked Sendable: `handle` and `quiesced` are only read or changed under `lock`, and the
    // listen socket is closed (quiesce) and MHD stopped at most once each, under that lock.
    private let lock = NSLock()
    private var handle: OpaquePointer?
    /// The listen socket's descriptor (libmicrohttpd's from `init` on; it closes it in `MHD_stop_daemon`).
    private let listenDescriptor: Int32
    /// Whether ``quiesce()`` has closed the listen socket.
    private var quiesced = false
    private let dispatcher: Unmanaged<RequestDispatcher>
    private let unixSocketPath: String?

    /// Starts the daemon on `socket`, which it takes over.
    /// - Throws: ``ServerError/daemonStartFailed(_:)``.
    init(socket: ListenSocket, configuration: HTTPServer.Configuration, dispatcher: RequestDispatcher) throws {
        self.dispatcher = Unmanaged.passRetained(dispatcher)
        if case .unixSocket(let path) = socket.address { unixSocketPath = path } else { unixSocketPath = nil }
        let context = self.dispatcher.toOpaque()

        let completed: MHD_RequestCompletedCallback = widgetHostRequestCompleted
        let connection: MHD_NotifyConnectionCallback = widgetHostConnectionNotified
        let unescape: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int =
            widgetHostKeepEscaped
        let logger: MHD_LogCallback = widgetHostLogMessage
        let requestLine: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?)
            -> UnsafeMutableRawPointer? = widgetHostRequestLineRead
        let descriptor = socket.handOver()
        listenDescriptor = descriptor
        // The logger goes first: MHD reports options before it through its default logger.
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .EXTERNAL_LOGGER, value: unsafeBitCast(logger, to: Int.self), ptr_value: context),
            MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(descriptor), ptr_value: nil),
            MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threadPoolSize, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.connectionTimeout, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: configuration.connectionMemoryLimit, ptr_value: nil),
            MHD_OptionItem(option: .NOTIFY_COMPLETED, value: unsafeBitCast(completed, to: Int.self), ptr_value: context),
            MHD_OptionItem(option: .NOTIFY_CONNECTION, value: unsafeBitCast(connection, to: Int.self), ptr_value: context),
            MHD_OptionItem(option: .UNESCAPE_CALLBACK, value: unsafeBitCast(unescape, to: Int.self), ptr_value: nil),
            MHD_OptionItem(option: .URI_LOG_CALLBACK, value: unsafeBitCast(requestLine, to: Int.self), ptr_value: context),
            MHD_OptionItem(option: .END, value: 0, ptr_value: nil),
        ]
        let flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
        handle = options.withUnsafeMutableBufferPointer { items in
            withVaList([MHD_OPTION.ARRAY.rawValue, items.baseAddress!, MHD_OPTION.END.rawValue]) { arguments in
                MHD_start_daemon_va(flags, 0, nil, nil, widgetHostAccessHandler, context, arguments)
            }
        }
        guard handle != nil else {
            close(descriptor)
            self.dispatcher.release()
            throw ServerError.daemonStartFailed(socket.address)
        }
    }

    deinit {
        stop()
    }

    /// Stops accepting connections: closes the listen socket, so new connections are refused; open
    /// connections go on being served.
    ///
    /// Not `MHD_quiesce_daemon`, which with epoll and a thread pool can abort the process
    /// (libmicrohttpd 0.9.75: see `widgethost_close_listen_socket` in the shim). The socket is
    /// replaced, under its descriptor number, by an eventfd that never becomes ready, which
    /// `MHD_stop_daemon` later closes. Should no descriptor be left for that eventfd, the socket
    /// stays open and new connections wait until ``stop()`` closes them.
    func quiesce() {
        lock.withLock {
            guard handle != nil, !quiesced else { return }
            quiesced = true
            if widgethost_close_listen_socket(listenDescriptor) != 0 {
                dispatcher.takeUnretainedValue().log.log(.warning, "listen socket left open until stop",
                                                         ["errno": .int(Int(errno))])
            }
            if let unixSocketPath { unlink(unixSocketPath) }
        }
    }

    /// Closes every connection and joins MHD's threads (`MHD_stop_daemon`).
    ///
    /// MHD aborts the process if a connection is still suspended, so requests whose handlers are still
    /// running are answered 503 first (resumed; `MHD_stop_daemon` processes pending resumptions before
    /// its check). With ``HandlerBridging/blockWorker`` this waits for running handlers instead.
    func stop() {
        lock.withLock {
            guard let running = handle else { return }
            handle = nil
            dispatcher.takeUnretainedValue().abandonSuspendedRequests()
            MHD_stop_daemon(running)
            if let unixSocketPath { unlink(unixSocketPath) }
            dispatcher.release()
        }
    }
}
