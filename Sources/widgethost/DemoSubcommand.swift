import Foundation
import WidgetHostCommandLine

/// The frame `widgethost activities …`, `widgethost push …` and `widgethost controls …` share: read the options,
/// prepare the subcommand's work from its arguments (so a bad argument is refused, exit 2, before anything is opened
/// or changed), then run the work on the data directory. An error `refusal` recognises is the command finding a
/// problem (exit 1, with the sentence it returns); any other is data that could not be opened or written (exit 3).
enum DemoSubcommand {
    /// Runs synchronous work on what `open` makes of the data directory.
    static func run<Target>(
        _ name: String, usage: String, _ arguments: [String], valued: Set<String>, flags: Set<String>,
        prepare: (_ subcommand: String, _ positional: [String], _ options: Options) throws
            -> @Sendable (Target) throws -> String,
        open: @escaping @Sendable (URL) throws -> Target,
        refusal: (any Error) -> String?
    ) -> Int32 {
        run(name, usage: usage, arguments, valued: valued, flags: flags, prepare: prepare,
            execute: { directory, work in try work(try open(directory)) }, refusal: refusal)
    }

    /// Runs prepared `Work` through `execute`, which opens the data directory, runs it and closes what it opened.
    static func run<Work: Sendable>(
        _ name: String, usage: String, _ arguments: [String], valued: Set<String>, flags: Set<String>,
        prepare: (_ subcommand: String, _ positional: [String], _ options: Options) throws -> Work,
        execute: @escaping @Sendable (_ dataDirectory: URL, _ work: Work) async throws -> String,
        refusal: (any Error) -> String?
    ) -> Int32 {
        let options: Options
        do {
            options = try Options(arguments, valued: valued.union(["data-dir"]), flags: flags.union(["json", "help"]))
        } catch {
            printError("widgethost \(name): \(error.message)\n\(usage)")
            return ExitCode.usage
        }
        var positional = options.positional
        guard !options.has("help"), !positional.isEmpty else {
            print(usage)
            return options.has("help") ? ExitCode.success : ExitCode.usage
        }
        let subcommand = positional.removeFirst()
        let work: Work
        do {
            work = try prepare(subcommand, positional, options)
        } catch let error as OptionError {
            printError("widgethost \(name): \(error.message)\n\(usage)")
            return ExitCode.usage
        } catch {
            printError("widgethost \(name): \(error)")
            return ExitCode.usage
        }
        let dataDirectory = options.dataDirectory
        switch Blocking.run({ try await execute(dataDirectory, work) }) {
        case .success(let text):
            print(text)
            return ExitCode.success
        case .failure(let error):
            if let sentence = refusal(error) {
                printError("widgethost \(name): \(sentence)")
                return ExitCode.problemFound
            }
            printError("widgethost \(name): \(error)")
            return ExitCode.dataError
        }
    }
}
