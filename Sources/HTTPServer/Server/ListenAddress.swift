/// Where an ``HTTPServer`` listens.
public enum ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// A TCP address: an IPv4 or IPv6 literal (no host names) and a port; port 0 picks a free one.
    case tcp(host: String, port: UInt16)
    /// A Unix-domain stream socket at this path, created with mode 0600 (only the owner may connect).
    case unixSocket(path: String)

    /// `127.0.0.1:port`, the default.
    public static func loopback(port: UInt16 = 0) -> ListenAddress {
        .tcp(host: "127.0.0.1", port: port)
    }

    /// `[::1]:port`.
    public static func loopbackIPv6(port: UInt16 = 0) -> ListenAddress {
        .tcp(host: "::1", port: port)
    }

    /// Whether only this machine can reach the address: 127.0.0.0/8, `::1`, or a Unix socket.
    /// `0.0.0.0`, `::` and every other address count as reachable from outside.
    public var isLocalOnly: Bool {
        switch self {
        case .unixSocket:
            return true
        case .tcp(let host, _):
            if host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
            let octets = host.split(separator: ".", omittingEmptySubsequences: false)
            return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
        }
    }

    /// The TCP port, or nil for a Unix socket.
    public var port: UInt16? {
        if case .tcp(_, let port) = self { port } else { nil }
    }

    /// `127.0.0.1:8080`, `[::1]:8080` or `unix:/path`.
    public var description: String {
        switch self {
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unixSocket(let path): "unix:\(path)"
        }
    }

    /// A base URL for clients: `http://127.0.0.1:8080`; for a Unix socket, `http://localhost` (the
    /// socket path goes to the client separately, e.g. `curl --unix-socket`).
    public var baseURL: String {
        switch self {
        case .tcp: "http://\(description)"
        case .unixSocket: "http://localhost"
        }
    }
}
