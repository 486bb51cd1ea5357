import Foundation
import ProcessTestSupport
import HTTPServer

/// A small HTTP/1.1 client over one POSIX socket, so tests can see exactly what goes over a
/// connection: several requests on it (keep-alive), whether the server closed it, raw bytes.
///
/// The socket calls block, so the async methods run them on a thread of their own (`runOffPool`): blocking
/// Swift's cooperative pool (two threads on this machine) would starve the server's handler tasks.
public final class RawHTTPClient: @unchecked Sendable {
    // @unchecked Sendable: a test uses a client from one task, one call at a time; the hop to a
    // dedicated thread hands it over and back.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: Data

        public func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }

        public var text: String { String(decoding: body, as: UTF8.self) }

        /// The body as a JSON object.
        public var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        }
    }

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    private let descriptor: Int32
    private var buffer = Data()

    /// Connects to `address` (TCP IPv4/IPv6 literal, or a Unix socket).
    /// - Parameter timeoutSeconds: How long a read waits. Generous: in a full parallel test run, a handler
    ///   task can wait for one of Swift's two cooperative threads behind CPU-bound tests for more than the
    ///   10 s this was (seen as `recv: errno 11` in handler-hopping server tests, one run in three).
    public init(_ address: ListenAddress, timeoutSeconds: Int = 30) throws {
        // `descriptor` is set only once connected: a throw before then runs no `deinit`, which would
        // close the number a second time, after another thread (a server, a database) may have got it.
        let connected = try Self.connect(address)
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(connected, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        descriptor = connected
    }

    /// A socket connected to `address`; closed again when connecting fails.
    private static func connect(_ address: ListenAddress) throws -> Int32 {
        switch address {
        case .tcp(let host, let port):
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            hints.ai_flags = AI_NUMERICHOST
            var info: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, String(port), &hints, &info) == 0, let info else { throw Failure(description: "getaddrinfo \(host)") }
            defer { freeaddrinfo(info) }
            let descriptor = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
            guard Glibc.connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
                let code = errno
                close(descriptor)
                throw Failure(description: "connect: errno \(code)")
            }
            return descriptor
        case .unixSocket(let path):
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard result == 0 else {
                let code = errno
                close(descriptor)
                throw Failure(description: "connect unix: errno \(code)")
            }
            return descriptor
        }
    }

    deinit {
        close(descriptor)
    }

    /// Sends one request and reads its response, off the cooperative pool.
    public func request(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: Data? = nil
    ) async throws -> Response {
        try await runOffPool { try self.requestBlocking(method, target, headers: headers, body: body) }
    }

    /// Sends raw bytes, then reads one response, off the cooperative pool.
    public func send(_ data: Data) async throws -> Response {
        try await runOffPool {
            try self.write(data)
            return try self.readResponse()
        }
    }

    /// Whether the server has closed the connection (reads end of stream within the timeout).
    public func isClosedByServer() async -> Bool {
        (try? await runOffPool { try self.fill() }) == false
    }

    /// Sends raw bytes.
    public func write(_ data: Data) throws {
        var offset = 0
        while offset < data.count {
            let sent = data.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + offset, data.count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(description: "send: errno \(errno)") }
            offset += sent
        }
    }

    /// Sends one request (with `Content-Length` when there is a body) and reads its response.
    public func requestBlocking(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: Data? = nil
    ) throws -> Response {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: localhost\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        do {
            try write(Data(head.utf8) + (body ?? Data()))
        } catch {
            // A server may answer before the body is read (401, 413) and close: its answer is still to be read.
            guard let early = try? readResponse(bodyExpected: method != "HEAD") else { throw error }
            return early
        }
        return try readResponse(bodyExpected: method != "HEAD")
    }

    /// Reads one response.
    public func readResponse(bodyExpected: Bool = true) throws -> Response {
        let separator = Data("\r\n\r\n".utf8)
        while buffer.range(of: separator) == nil {
            guard try fill() else { throw Failure(description: "connection closed before a response") }
        }
        let headEnd = buffer.range(of: separator)!
        let head = String(decoding: buffer[buffer.startIndex..<headEnd.lowerBound], as: UTF8.self)
        buffer = Data(buffer[headEnd.upperBound...])
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure(description: "bad status line") }
        let headers = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = Response(status: status, headers: headers, body: Data())
        let length = bodyExpected ? Int(response.header("Content-Length") ?? "0") ?? 0 : 0
        while buffer.count < length {
            guard try fill() else { throw Failure(description: "connection closed inside a body") }
        }
        response.body = Data(buffer.prefix(length))
        buffer = Data(buffer.dropFirst(length))
        return response
    }

    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(descriptor, &chunk, chunk.count, 0)
        if count == 0 { return false }
        if count < 0 {
            if errno == ECONNRESET { return false }
            throw Failure(description: "recv: errno \(errno)")
        }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }
}
