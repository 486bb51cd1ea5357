import Foundation

/// A PostgreSQL cluster made for one test process: `initdb` in a temporary directory, `postgres` listening
/// only on a Unix socket in that directory, stopped and removed when the process exits.
///
/// PostgreSQL refuses to run as root, so when the tests run as root (CI, containers) the cluster runs as the
/// `postgres` user Debian's package creates (or `nobody` when there is none), through `runuser`, and the
/// directory is handed to that user. The binaries are looked for in `$WIDGETHOST_POSTGRES_BIN`, then in
/// `/usr/lib/postgresql/<version>/bin` (Debian), newest version first; when none is found
/// ``isAvailable`` is false and the tests that need a server are skipped, naming what to install.
///
/// Each test makes its own database (``makeDatabase()``), so tests never see each other's rows.
public final class ThrowawayCluster: Sendable {
    /// Why tests that need PostgreSQL are skipped on this machine.
    public static let skipReason = "PostgreSQL server binaries (initdb, pg_ctl) not found: install Debian's postgresql (make pg-deps) or set WIDGETHOST_POSTGRES_BIN"

    /// Whether PostgreSQL's server binaries are installed.
    public static var isAvailable: Bool { binDirectory != nil }

    /// The cluster of this test process, started on first use.
    /// - Throws: ``ClusterError`` when `initdb` or `pg_ctl` fails (its output is in the error).
    public static func shared() throws -> ThrowawayCluster { try sharedResult.get() }

    /// The directory holding the data directory, the socket and the log.
    public let directory: URL
    /// The user the server runs as when this process is root (nil: as this process's user).
    public let serverUser: String?
    private let bin: URL

    /// A libpq connection string (URL) for `database` on this cluster.
    public func connectionString(database: String) -> String {
        "postgresql:///\(database)?host=\(directory.path)&port=\(Self.port)&user=widgethost"
    }

    /// Creates a new, empty database and returns its connection string.
    public func makeDatabase() throws -> String {
        let name = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try run("createdb", ["-h", directory.path, "-p", String(Self.port), "-U", "widgethost", name])
        return connectionString(database: name)
    }

    /// Stops the server at once, as a crash would (`pg_ctl stop -m immediate`: no checkpoint; recovery on start).
    public func stopImmediately() throws { try pgCtl(["stop", "-m", "immediate", "-w"]) }

    /// Starts the server again after ``stopImmediately()``; returns once it accepts connections.
    public func start() throws {
        try pgCtl(["start", "-w", "-t", "60", "-l", directory.appendingPathComponent("server.log").path,
                   "-o", "-c listen_addresses='' -k \(directory.path) -p \(Self.port) -c fsync=off"
                       + " -c full_page_writes=off -c max_connections=200"])
    }

    // MARK: - Making and removing the cluster

    static let port = 5432
    private static let sharedResult: Result<ThrowawayCluster, any Error> = Result { () throws -> ThrowawayCluster in
        let cluster = try makeCluster()
        atexit { try? ThrowawayCluster.sharedResult.get().remove() }
        return cluster
    }

    /// A cluster of the caller's own, for a test that stops and starts its server; the caller removes it.
    public static func makeCluster() throws -> ThrowawayCluster {
        guard let bin = binDirectory else { throw ClusterError(step: "find", output: skipReason) }
        return try ThrowawayCluster(bin: bin)
    }

    private static var binDirectory: URL? {
        let manager = FileManager.default
        var candidates: [String] = []
        if let given = ProcessInfo.processInfo.environment["WIDGETHOST_POSTGRES_BIN"] { candidates.append(given) }
        let versions = (try? manager.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        candidates += versions.compactMap(Int.init).sorted(by: >).map { "/usr/lib/postgresql/\($0)/bin" }
        return candidates.map { URL(fileURLWithPath: $0) }.first { directory in
            ["initdb", "pg_ctl", "postgres", "createdb"].allSatisfy {
                manager.isExecutableFile(atPath: directory.appendingPathComponent($0).path)
            }
        }
    }

    private init(bin: URL) throws {
        self.bin = bin
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("widgethost-pg-XXXXXX").path
        var bytes = Array(template.utf8CString)
        guard mkdtemp(&bytes) != nil else { throw ClusterError(step: "mkdtemp", output: String(cString: strerror(errno))) }
        directory = URL(fileURLWithPath: String(decoding: bytes.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
        if getuid() == 0 {
            let user = getpwnam("postgres") != nil ? "postgres" : "nobody"
            serverUser = user
            guard let entry = getpwnam(user), chown(directory.path, entry.pointee.pw_uid, entry.pointee.pw_gid) == 0 else {
                throw ClusterError(step: "chown", output: "cannot give \(directory.path) to \(user)")
            }
        } else {
            serverUser = nil
        }
        try run("initdb", ["-D", dataDirectory, "-U", "widgethost", "--auth=trust", "--encoding=UTF8",
                           "--locale=C", "--no-sync"])
        try start()
    }

    private var dataDirectory: String { directory.appendingPathComponent("data").path }

    /// Stops the server and removes its directory.
    public func remove() {
        try? pgCtl(["stop", "-m", "immediate", "-w"])
        try? FileManager.default.removeItem(at: directory)
    }

    private func pgCtl(_ arguments: [String]) throws { try run("pg_ctl", ["-D", dataDirectory] + arguments) }

    /// Runs one of the cluster's binaries, as the server's user when this process is root, and waits for it.
    ///
    /// Through `posix_spawn` and `waitpid` rather than `Process`: `pg_ctl start` leaves the server running with
    /// the descriptors it inherited, and the tool's output goes to a file, never to a pipe the server would
    /// hold open.
    private func run(_ tool: String, _ arguments: [String]) throws {
        let executable = bin.appendingPathComponent(tool).path
        let argv = serverUser.map { ["/usr/sbin/runuser", "-u", $0, "--", executable] } ?? [executable]
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("widgethost-pg-\(UUID()).out")
        defer { try? FileManager.default.removeItem(at: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let all = (argv + arguments).map { strdup($0) }
        defer { all.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, all + [nil], environ)
        guard spawned == 0 else {
            throw ClusterError(step: tool, output: "posix_spawn failed: \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            throw ClusterError(step: tool + " " + arguments.joined(separator: " "), output: text)
        }
    }
}

/// A step of making or running the throwaway cluster failed.
public struct ClusterError: Error, CustomStringConvertible {
    /// The command that failed.
    public var step: String
    /// What it printed.
    public var output: String

    public var description: String { "PostgreSQL test cluster: `\(step)` failed: \(output)" }
}
