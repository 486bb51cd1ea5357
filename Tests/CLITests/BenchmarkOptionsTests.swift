import Foundation
import ProcessTestSupport
import Testing

/// `widgethost-bench`'s numeric options, run as a user would: a value that is missing, not a number or out of range
/// is refused with the option's name, before any benchmark starts (no default or clamped value used instead).
@Suite("widgethost-bench options")
struct BenchmarkOptionsTests {
    static func binary() throws -> URL {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let url = packageRoot.appendingPathComponent(".build/debug/widgethost-bench")
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        return url
    }

    @Test(.timeLimit(.minutes(1)), arguments: [
        (["intents", "--rounds", "abc"], #"--rounds takes a whole number of at least 1, got "abc""#),
        (["intents", "--rounds", "0"], #"--rounds takes a whole number of at least 1, got "0""#),
        (["intents", "--seconds", "0.01"], #"--seconds takes a number of seconds of at least 0.1, got "0.01""#),
        (["intents", "--seconds", "nan"], #"--seconds takes a number of seconds of at least 0.1, got "nan""#),
        (["store", "--rounds"], "--rounds needs a value (of at least 1)"),
        (["taps", "--batch", "12x"], #"--batch takes a whole number of at least 1, got "12x""#),
        (["timelines", "--instances", "-5"], #"--instances takes a whole number of at least 1, got "-5""#),
        (["apns", "--streams", "5000"], #"--streams takes a whole number from 10 to 1000, got "5000""#),
        (["intents", "--dir", ""], "--dir needs a directory path"),
    ])
    func badValuesAreRefused(arguments: [String], message: String) async throws {
        let run = try await FinishedChild.run(try Self.binary(), arguments)
        #expect(run.status != 0)
        #expect(run.standardError.contains(message), "\(run.standardError)")
        #expect(!run.standardOutput.contains("case"), "no benchmark ran: \(run.standardOutput)")
    }
}
