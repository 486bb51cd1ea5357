import Foundation
import HTTPServer

/// Starting servers for tests: ephemeral port, a log kept in memory.
enum TestServer {
    /// Log lines written by a server, for assertions.
    final class LogLines: Sendable {
        private let lines = LockedLines()

        var all: [String] { lines.get() }

        var sink: @Sendable (String) -> Void {
            { [lines] line in lines.append(line) }
        }
    }

    static func start(
        _ router: HTTPRouter = HTTPRouter(),
        bridging: HandlerBridging = .inlineThenSuspend,
        address: ListenAddress = .loopback(),
        token: String? = nil,
        maximumBodySize: Int = HTTPServer.Configuration.defaultMaximumBodySize,
        log: LogLines = LogLines(),
        logLevel: LogLevel = .info,
        onStop: (@Sendable () async -> Void)? = nil
    ) throws -> HTTPServer {
        try HTTPServer(
            configuration: .init(
                address: address, bearerToken: token, threadPoolSize: 2, maximumBodySize: maximumBodySize,
                bridging: bridging, log: ServerLog(level: logLevel, sink: log.sink), onStop: onStop
            ),
            router: router
        )
    }
}

/// Lines appended from several threads.
final class LockedLines: @unchecked Sendable {
    // @unchecked Sendable: `lines` is only touched under `lock`.
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) {
        lock.withLock { lines.append(line) }
    }

    func get() -> [String] {
        lock.withLock { lines }
    }
}

/// A thread-safe counter for handler side effects.
final class Tally: @unchecked Sendable {
    // @unchecked Sendable: `count` is only touched under `lock`.
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.withLock { count += 1 }
    }

    var value: Int { lock.withLock { count } }
}
