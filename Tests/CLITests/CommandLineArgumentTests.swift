import Foundation
import Testing

/// Arguments that are not UTF-8, given to the built binary as bytes: every one but the URL of `route <url>` (see
/// `RouteCommandTests.routeArgumentBytes`) is refused with its position and first bad byte, and nothing is done.
@Suite("widgethost arguments that are not UTF-8")
struct CommandLineArgumentTests {
    @Test("routes explain, routes build, route options, taps, perform and the command itself refuse them (exit 2)")
    func refused() async throws {
        let directory = try RouteCommandTests.routes(RouteCommandTests.files)
        defer { try? FileManager.default.removeItem(at: directory) }
        let routes = [Array("--routes".utf8), Array(directory.path.utf8)]
        let data = try CommandRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let dataDirectory = [Array("--data-dir".utf8), Array(data.path.utf8)]
        let cases: [(arguments: [[UInt8]], message: String)] = [
            ([Array("routes".utf8), Array("explain".utf8), Array("myapp://files/".utf8) + [0xFF]] + routes,
             #"argument 3 is not UTF-8 at byte 14: myapp://files/\xFF"#),
            ([Array("routes".utf8), Array("build".utf8), Array("files".utf8), Array("path=caf".utf8) + [0xE9]] + routes,
             #"argument 4 is not UTF-8 at byte 8: path=caf\xE9"#),
            ([Array("route".utf8), Array("myapp://files/a".utf8), Array("--routes".utf8), Array(directory.path.utf8) + [0xC3]],
             "argument 4 is not UTF-8 at byte \(directory.path.utf8.count): "),
            ([Array("route".utf8), Array("-".utf8), Array("--family".utf8), [0x80]], #"argument 4 is not UTF-8 at byte 0: \x80"#),
            // A truncated sequence after valid non-ASCII: the offset is where the broken sequence starts.
            ([Array("taps".utf8), Array("record".utf8), Array("myapp://task/é".utf8) + [0xE2, 0x9C], Array("--kind".utf8),
              Array("TaskList".utf8), Array("--family".utf8), Array("systemSmall".utf8), Array("--source".utf8),
              Array("widgetURL".utf8)] + dataDirectory,
             #"argument 3 is not UTF-8 at byte 15: myapp://task/\xC3\xA9\xE2\x9C"#),
            ([Array("perform".utf8), Array("CompleteTaskIntent".utf8), Array("--param".utf8), Array("taskId=task-".utf8) + [0xFF]]
                + dataDirectory, #"argument 4 is not UTF-8 at byte 12: taskId=task-\xFF"#),
            ([[0xFF]], #"argument 1 is not UTF-8 at byte 0: \xFF"#),
        ]
        for (arguments, message) in cases {
            let run = try await CommandRunner.run(bytes: arguments)
            #expect(run.status == 2, "\(message)")
            #expect(run.standardOutput.isEmpty)
            #expect(run.standardError.hasPrefix("widgethost: \(message)"), "\(run.standardError)")
        }
        // Nothing was done: the refused tap and intent left no data behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: data.path).isEmpty)
    }
}
