import Foundation

/// A child process run to its end: its exit status and what it wrote.
public struct FinishedChild: Sendable {
    /// The exit status, or the signal's number when a signal ended it.
    public var status: Int32
    /// How it ended: `.exit`, or `.uncaughtSignal` (a child that kills itself).
    public var reason: Process.TerminationReason
    /// Everything written to standard output.
    public var standardOutput: String
    /// Everything written to standard error.
    public var standardError: String

    /// Runs `executable` until it exits, off Swift's cooperative pool (see `runOffPool`).
    /// - Parameters:
    ///   - directory: The working directory; this process's when nil.
    ///   - environment: Added to this process's environment (its values win).
    ///   - input: A file the child reads as its standard input; this process's when nil.
    public static func run(_ executable: URL, _ arguments: [String], in directory: URL? = nil,
                           environment: [String: String] = [:], input: URL? = nil) async throws -> FinishedChild {
        try await runOffPool { try runBlocking(executable, arguments, in: directory, environment: environment, input: input) }
    }

    /// `run`, on the calling thread. Both pipes are read as the child writes them, so a child that fills one
    /// never waits for a reader busy with the other.
    public static func runBlocking(_ executable: URL, _ arguments: [String], in directory: URL? = nil,
                                   environment: [String: String] = [:], input: URL? = nil) throws -> FinishedChild {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        if let input { process.standardInput = try FileHandle(forReadingFrom: input) }
        let (outputCollector, errorCollector) = (PipeCollector(output), PipeCollector(errors))
        try process.run()
        process.waitUntilExit()
        return FinishedChild(status: process.terminationStatus, reason: process.terminationReason, output: outputCollector,
                             errors: errorCollector)
    }

    /// Runs `executable` with arguments given as bytes, passed to it as they are, until it exits, off Swift's
    /// cooperative pool: `Process` takes `String`s, whose bytes are always UTF-8, so it cannot give a child an
    /// argument that is not. The child gets this process's environment and working directory.
    public static func run(_ executable: URL, argumentBytes: [[UInt8]]) async throws -> FinishedChild {
        try await runOffPool { try runBlocking(executable, argumentBytes: argumentBytes) }
    }

    /// `run(_:argumentBytes:)`, on the calling thread, through `posix_spawn`.
    public static func runBlocking(_ executable: URL, argumentBytes: [[UInt8]]) throws -> FinishedChild {
        let output = Pipe()
        let errors = Pipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, output.fileHandleForWriting.fileDescriptor, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, errors.fileHandleForWriting.fileDescriptor, STDERR_FILENO)
        // Nothing else of this process's (other tests' pipes and sockets) stays open in the child, where glibc has
        // `posix_spawn_file_actions_addclosefrom_np` (2.34 on; Swift's Glibc module does not declare it).
        if let closeFrom = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            _ = unsafeBitCast(closeFrom, to: CloseFrom.self)(&actions, STDERR_FILENO + 1)
        }
        let environment = ProcessInfo.processInfo.environment.map { Array("\($0.key)=\($0.value)".utf8) }
        let argv = ([Array(executable.path.utf8)] + argumentBytes).map(Self.cString)
        let envp = environment.map(Self.cString)
        defer { (argv + envp).forEach { $0?.deallocate() } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable.path, &actions, nil, argv + [nil], envp + [nil])
        try output.fileHandleForWriting.close()
        try errors.fileHandleForWriting.close()
        let (outputCollector, errorCollector) = (PipeCollector(output), PipeCollector(errors))
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
        // The exit code when the child exited (low 7 bits 0), else 128 + the signal that ended it, as a shell says.
        let signalled = status & 0x7F != 0
        let exitStatus = signalled ? status & 0x7F : (status >> 8) & 0xFF
        return FinishedChild(status: exitStatus, reason: signalled ? .uncaughtSignal : .exit, output: outputCollector,
                             errors: errorCollector)
    }

    /// A copy of `bytes` ending with a NUL, for `argv` or `envp`; the caller deallocates it.
    private static func cString(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar>? {
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
        copy[bytes.count] = 0
        return copy
    }
}

extension FinishedChild {
    /// A child that ended with `status` for `reason`, with all that `output` and `errors` read from its pipes.
    private init(status: Int32, reason: Process.TerminationReason, output: PipeCollector, errors: PipeCollector) {
        self.init(status: status, reason: reason, standardOutput: String(decoding: output.waitForEnd(), as: UTF8.self),
                  standardError: String(decoding: errors.waitForEnd(), as: UTF8.self))
    }
}
