import Foundation

/// The exit codes every subcommand uses.
package enum ExitCode {
    package static let success: Int32 = 0
    package static let problemFound: Int32 = 1
    package static let usage: Int32 = 2
    package static let dataError: Int32 = 3
}

/// Writes a line to standard error.
package func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
