import Foundation

/// An APNs-like server on loopback for `widgethost-bench apns`: Debian's nginx reading every
/// `POST /3/device/<token>` and answering 200 with the request's `apns-id` (TLS 1.3, HTTP/2 through ALPN; the
/// throughput yardstick), or the local APNs stand-in (Tests/apns; checks everything APNs checks, single-threaded Python).
/// Its throwaway certificate, key and configuration live in the benchmark's scratch directory.
final class APNsBenchServer {
    enum Kind: String {
        case nginx
        case standIn = "stand-in"
    }

    let kind: Kind
    let port: Int
    /// The PEM file to trust (the self-signed certificate, or the stand-in's CA).
    let caFile: String
    /// The streams the server allows on one connection.
    let maxStreams: Int
    private let process: Process

    /// Starts nginx in `directory` with `workers` worker processes, each connection allowed `maxStreams` streams;
    /// with `apnsIDLog`, it appends the `apns-id` of every request it answered to that file, one per line (so a
    /// benchmark can count what reached the server).
    static func nginx(in directory: URL, workers: Int, maxStreams: Int,
                      apnsIDLog: String? = nil) throws -> APNsBenchServer {
        let root = directory.appendingPathComponent("nginx")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("empty"), withIntermediateDirectories: true)
        let certificate = root.appendingPathComponent("cert.pem").path
        let key = root.appendingPathComponent("key.pem").path
        try run("/usr/bin/openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                     "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=localhost",
                                     "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"])
        let port = try freePort()
        let configuration = """
            worker_processes \(workers);
            daemon off;
            pid \(root.path)/nginx.pid;
            error_log \(root.path)/error.log warn;
            events { worker_connections 1024; }
            http {
                \(apnsIDLog.map { "log_format apns_ids '$http_apns_id'; access_log \($0) apns_ids;" } ?? "access_log off;")
                client_body_temp_path \(root.path)/body;
                proxy_temp_path \(root.path)/proxy;
                fastcgi_temp_path \(root.path)/fastcgi;
                uwsgi_temp_path \(root.path)/uwsgi;
                scgi_temp_path \(root.path)/scgi;
                keepalive_requests 100000000;
                keepalive_timeout 600s;
                server {
                    listen 127.0.0.1:\(port) ssl http2;
                    ssl_certificate \(certificate);
                    ssl_certificate_key \(key);
                    ssl_protocols TLSv1.3;
                    http2_max_concurrent_streams \(maxStreams);
                    root \(root.path)/empty;
                    log_not_found off;
                    # As APNs does, read the whole body before answering: the mirror reads it first. An early answer
                    # (`return 200` at once) makes nginx reset the stream while the client still sends, which
                    # libcurl 7.88 reports as a failed transfer. There is no file, so the answer is the error page,
                    # turned into a 200 that echoes the request's apns-id.
                    location /3/device/ {
                        mirror /read-body;
                        mirror_request_body on;
                        error_page 404 405 =200 /answer;
                    }
                    location = /read-body { internal; return 204; }
                    location = /answer { internal; add_header apns-id $http_apns_id always; return 200; }
                }
            }
            """
        let file = root.appendingPathComponent("nginx.conf")
        try configuration.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-p", root.path, "-c", file.path, "-e", root.appendingPathComponent("error.log").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try waitForListening(port, process)
        return APNsBenchServer(kind: .nginx, port: port, caFile: certificate, maxStreams: maxStreams, process: process)
    }

    /// Starts the stand-in with the team's key `keyFile` (id `keyID`), team `teamID`, topic `bundle`.
    static func standIn(in directory: URL, keyFile: String, keyID: String, teamID: String, bundle: String,
                        maxStreams: Int) throws -> APNsBenchServer {
        let state = directory.appendingPathComponent("stand-in")
        let process = Process()
        process.executableURL = sourceRoot.appendingPathComponent("Tests/apns/local-apns")
        process.arguments = ["--state-dir", state.path, "--key", "\(keyID)=\(keyFile)", "--team", teamID,
                             "--topic", bundle, "--max-streams", String(maxStreams)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let ready = state.appendingPathComponent("ready.json")
        let deadline = Date().addingTimeInterval(300)
        while process.isRunning, Date() < deadline {
            if let data = try? Data(contentsOf: ready),
               let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
               let port = object["port"] as? Int, let ca = object["caFile"] as? String {
                return APNsBenchServer(kind: .standIn, port: port, caFile: ca, maxStreams: maxStreams, process: process)
            }
            usleep(50_000)
        }
        process.terminate()
        throw BenchmarkUsage(message: "the local APNs stand-in did not start (Tests/apns/local-apns)")
    }

    private init(kind: Kind, port: Int, caFile: String, maxStreams: Int, process: Process) {
        self.kind = kind
        self.port = port
        self.caFile = caFile
        self.maxStreams = maxStreams
        self.process = process
    }

    deinit { stop() }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// The source tree (Tests/apns, Benchmarks/apns), from this file's path.
    static let sourceRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkUsage(message: "\(tool) \(arguments.prefix(2).joined(separator: " ")) failed")
        }
    }

    /// A TCP port nothing listens on now (bound and released; the server binds it right after).
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchmarkUsage(message: "socket: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddr in
                bind(descriptor, sockaddr, length) == 0 && getsockname(descriptor, sockaddr, &length) == 0
            }
        }
        guard bound else { throw BenchmarkUsage(message: "bind: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func waitForListening(_ port: Int, _ process: Process) throws {
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning, Date() < deadline {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(port).bigEndian
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            close(descriptor)
            if connected { return }
            usleep(20_000)
        }
        throw BenchmarkUsage(message: "nginx did not start listening on 127.0.0.1:\(port)")
    }
}
