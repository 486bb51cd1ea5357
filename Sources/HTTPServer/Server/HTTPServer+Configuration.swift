import Foundation

extension HTTPServer {
    /// Everything an ``HTTPServer`` needs to start, with safe defaults.
    public struct Configuration: Sendable {
        /// Where to listen. Default `127.0.0.1` on a free port.
        public var address: ListenAddress
        /// When set, every request must send `Authorization: Bearer <token>` (but those to routes registered with
        /// ``HTTPRouter/addWithoutToken(_:_:handler:)``); required for addresses that are not loopback or a Unix
        /// socket.
        public var bearerToken: String?
        /// libmicrohttpd worker threads, each with its own epoll set. Default: the core count, at least 2.
        public var threadPoolSize: Int
        /// The largest request body accepted, in bytes; larger bodies get 413 `payload_too_large`.
        /// Default 1 MiB.
        public var maximumBodySize: Int
        /// Seconds an idle connection stays open. Default 30.
        public var connectionTimeout: Int
        /// The memory libmicrohttpd gives each connection for its request line, header fields and read buffer, in
        /// bytes; a request whose header fields do not fit is answered 431 by libmicrohttpd. MHD clears this memory
        /// before every request on a connection, so it is a per-request cost. Default 16 KiB (MHD's own is 32).
        public var connectionMemoryLimit: Int
        /// How MHD threads run `async` handlers. Default ``HandlerBridging/inlineThenSuspend``.
        public var bridging: HandlerBridging
        /// Where request lines and server events go.
        public var log: ServerLog
        /// The registry served at `/metrics`; pass the process-wide one so other components' metrics
        /// appear there too.
        public var metrics: MetricsRegistry
        /// Called once after the server stopped (in-flight requests done, sockets closed); the daemon
        /// checkpoints its database here.
        public var onStop: (@Sendable () async -> Void)?

        /// The default body cap: 1 MiB.
        public static let defaultMaximumBodySize = 1 << 20
        /// The default per-connection memory: 16 KiB.
        public static let defaultConnectionMemoryLimit = 16 << 10

        /// Creates a configuration.
        public init(
            address: ListenAddress = .loopback(),
            bearerToken: String? = nil,
            threadPoolSize: Int = max(2, ProcessInfo.processInfo.activeProcessorCount),
            maximumBodySize: Int = Configuration.defaultMaximumBodySize,
            connectionTimeout: Int = 30,
            connectionMemoryLimit: Int = Configuration.defaultConnectionMemoryLimit,
            bridging: HandlerBridging = .inlineThenSuspend,
            log: ServerLog = ServerLog(),
            metrics: MetricsRegistry = MetricsRegistry(),
            onStop: (@Sendable () async -> Void)? = nil
        ) {
            self.address = address
            self.bearerToken = bearerToken
            self.threadPoolSize = threadPoolSize
            self.maximumBodySize = maximumBodySize
            self.connectionTimeout = connectionTimeout
            self.connectionMemoryLimit = connectionMemoryLimit
            self.bridging = bridging
            self.log = log
            self.metrics = metrics
            self.onStop = onStop
        }

        /// Checks the settings that do not need a socket.
        /// - Throws: ``ServerError``.
        func validate() throws {
            if let bearerToken, bearerToken.isEmpty || bearerToken.contains(where: \.isWhitespace) {
                throw ServerError.invalidConfiguration("the bearer token must be non-empty and contain no whitespace")
            }
            guard threadPoolSize >= 1 else { throw ServerError.invalidConfiguration("threadPoolSize must be at least 1") }
            guard maximumBodySize >= 0 else { throw ServerError.invalidConfiguration("maximumBodySize must not be negative") }
            guard connectionMemoryLimit >= 4096 else {
                throw ServerError.invalidConfiguration("connectionMemoryLimit must be at least 4096 bytes")
            }
            guard connectionTimeout >= 1 else { throw ServerError.invalidConfiguration("connectionTimeout must be at least 1 second") }
            if bearerToken == nil, !address.isLocalOnly {
                throw ServerError.nonLoopbackWithoutToken(address)
            }
        }
    }
}
