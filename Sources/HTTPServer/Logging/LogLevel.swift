/// How important a log line is; a ``ServerLog`` drops lines below its level.
public enum LogLevel: String, Sendable, Comparable, CaseIterable, Codable {
    /// Diagnostics for developers, e.g. libmicrohttpd's own messages.
    case debug
    /// One line per request, and lifecycle events.
    case info
    /// Something unusual that did not fail a request.
    case warning
    /// 5xx responses and failures.
    case error

    private var rank: Int {
        switch self {
        case .debug: 0
        case .info: 1
        case .warning: 2
        case .error: 3
        }
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
        lhs.rank < rhs.rank
    }
}
