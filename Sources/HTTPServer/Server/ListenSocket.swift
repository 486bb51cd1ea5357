import Foundation

/// A bound, listening, non-blocking socket, created here rather than by libmicrohttpd so that TCP over
/// IPv4 or IPv6 and Unix sockets all go the same way and the real port is known (`getsockname`).
///
/// Owns the descriptor until ``handOver()``: libmicrohttpd then closes it in `MHD_stop_daemon` (after
/// ``MHDDaemon/quiesce()`` has put a placeholder under the same number).
final class ListenSocket {
    /// The address actually bound (with the real port when port 0 was asked for).
    let address: ListenAddress
    private var descriptor: Int32

    /// Creates, binds and listens.
    /// - Throws: ``ServerError/invalidAddress(_:reason:)`` or ``ServerError/socket(operation:address:errno:)``.
    init(binding requested: ListenAddress) throws {
        switch requested {
        case .tcp(let host, let port):
            (descriptor, address) = try Self.bindTCP(host: host, port: port, requested: requested)
        case .unixSocket(let path):
            descriptor = try Self.bindUnix(path: path, requested: requested)
            address = requested
        }
        guard listen(descriptor, SOMAXCONN) == 0 else {
            let code = errno
            close(descriptor)
            // Every property is set, so `deinit` runs after the throw: it must not close the number again
            // (another thread may have been given it by then).
            descriptor = -1
            throw ServerError.socket(operation: "listen", address: requested, errno: code)
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Gives the descriptor to libmicrohttpd; this object no longer closes it.
    func handOver() -> Int32 {
        defer { descriptor = -1 }
        return descriptor
    }

    private static func makeSocket(family: Int32, requested: ListenAddress) throws -> Int32 {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let descriptor = socket(family, type, 0)
        guard descriptor >= 0 else { throw ServerError.socket(operation: "socket", address: requested, errno: errno) }
        return descriptor
    }

    private static func bind<Address>(_ descriptor: Int32, _ address: inout Address, requested: ListenAddress) throws {
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<Address>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(descriptor)
            throw ServerError.socket(operation: "bind", address: requested, errno: code)
        }
    }

    private static func bindTCP(host: String, port: UInt16, requested: ListenAddress) throws -> (Int32, ListenAddress) {
        var one: Int32 = 1
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        let descriptor: Int32
        if inet_pton(AF_INET, host, &ipv4) == 1 {
            descriptor = try makeSocket(family: AF_INET, requested: requested)
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr = ipv4
            try bind(descriptor, &address, requested: requested)
        } else if inet_pton(AF_INET6, host, &ipv6) == 1 {
            descriptor = try makeSocket(family: AF_INET6, requested: requested)
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = ipv6
            try bind(descriptor, &address, requested: requested)
        } else {
            throw ServerError.invalidAddress(requested, reason: "\"\(host)\" is not an IPv4 or IPv6 address literal")
        }
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0 else {
            let code = errno
            close(descriptor)
            throw ServerError.socket(operation: "getsockname", address: requested, errno: code)
        }
        let boundPort = withUnsafePointer(to: &bound) { pointer in
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
        return (descriptor, .tcp(host: host, port: boundPort))
    }

    private static func bindUnix(path: String, requested: ListenAddress) throws -> Int32 {
        var address = sockaddr_un()
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < capacity, !bytes.contains(0) else {
            throw ServerError.invalidAddress(requested, reason: "a Unix socket path must be 1 to \(capacity - 1) bytes")
        }
        try removeStaleSocket(at: path, requested: requested)
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        let descriptor = try makeSocket(family: AF_UNIX, requested: requested)
        try bind(descriptor, &address, requested: requested)
        guard chmod(path, 0o600) == 0 else {
            let code = errno
            close(descriptor)
            throw ServerError.socket(operation: "chmod", address: requested, errno: code)
        }
        return descriptor
    }

    /// Removes a socket file left by a server that is gone (connecting is refused); a live one is
    /// reported as in use, and a file that is not a socket is left for `bind` to refuse.
    private static func removeStaleSocket(at path: String, requested: ListenAddress) throws {
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFSOCK else { return }
        let probe = try makeSocket(family: AF_UNIX, requested: requested)
        defer { close(probe) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: Array(path.utf8))
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if connected == 0 || errno == EAGAIN || errno == EINPROGRESS {
            throw ServerError.socket(operation: "bind", address: requested, errno: EADDRINUSE)
        }
        unlink(path)
    }
}
