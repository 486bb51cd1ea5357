import Foundation

/// Why an ``HTTPServer`` could not start.
public enum ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A TCP address other than loopback was requested without a bearer token: anyone on the network
    /// could use the API.
    case nonLoopbackWithoutToken(ListenAddress)
    /// The host is not an IPv4 or IPv6 literal, or a Unix socket path is empty or too long.
    case invalidAddress(ListenAddress, reason: String)
    /// A socket call failed; `errno` and its text say why (e.g. the address is in use).
    case socket(operation: String, address: ListenAddress, errno: Int32)
    /// libmicrohttpd refused to start (its own message, if any, went to the log).
    case daemonStartFailed(ListenAddress)
    /// The configuration is unusable (e.g. an empty token or a zero thread pool).
    case invalidConfiguration(String)

    public var description: String {
        switch self {
        case .nonLoopbackWithoutToken(let address):
            "refusing to listen on \(address) without a bearer token: only loopback addresses and Unix sockets may be served without one"
        case .invalidAddress(let address, let reason):
            "invalid listen address \(address): \(reason)"
        case .socket(let operation, let address, let code):
            "\(operation) failed for \(address): \(String(cString: strerror(code))) (errno \(code))"
        case .daemonStartFailed(let address):
            "libmicrohttpd could not start on \(address)"
        case .invalidConfiguration(let reason):
            "invalid server configuration: \(reason)"
        }
    }
}
