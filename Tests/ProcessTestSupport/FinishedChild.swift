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
        return FinishedChild(status: process.terminationStatus, reason: process.terminationReason,
                             standardOutput: String(decoding: outputCollector.waitForEnd(), as: UTF8.self),
                             standardError: String(decoding: errorCollector.waitForEnd(), as: UTF8.self))
    }
}
