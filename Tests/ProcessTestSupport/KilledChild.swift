import Foundation

/// A child process killed with `SIGKILL` at a random moment after its first output: what the crash tests run.
public struct KilledChild: Sendable {
    /// Everything the child wrote to standard output before it died (its last line may be cut).
    public var output: Data
    /// Its standard error.
    public var standardError: String
    /// How it ended: `.uncaughtSignal` when the kill ended it, `.exit` when it ended by itself first.
    public var reason: Process.TerminationReason

    /// Runs `executable`, waits until it has written something (at most `firstOutputTimeout` seconds), waits a
    /// random time of at most `maximumDelay` microseconds more, and kills it. Blocks; call it through `runOffPool`.
    public static func run(_ executable: URL, arguments: [String], firstOutputTimeout: TimeInterval,
                           maximumDelay: UInt32) throws -> KilledChild {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let collector = PipeCollector(output)
        try process.run()
        let start = Date()
        while collector.collected.isEmpty && process.isRunning && Date().timeIntervalSince(start) < firstOutputTimeout {
            usleep(2_000)
        }
        usleep(UInt32.random(in: 0...maximumDelay))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let collected = collector.waitForEnd()
        let standardError = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return KilledChild(output: collected, standardError: standardError, reason: process.terminationReason)
    }
}
