import DemoWidgets
import Foundation
import SharedState
import WidgetHostCommandLine

/// `widgethost fixtures load [--data-dir DIR] [--fixtures DIR]`: loads Fixtures/*.json into the demo container.
enum FixturesCommand {
    static let usage = """
        usage: widgethost fixtures load [--data-dir DIR] [--fixtures DIR]

        Replaces the demo App Group container's data with the fixture files (one transaction) and prints the
        row counts. --fixtures defaults to this source tree's Fixtures/ directory.
        """

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(usage)
            return ExitCode.success
        }
        let options: Options
        do {
            options = try Options(arguments, valued: ["data-dir", "fixtures"], flags: [])
        } catch {
            printError("widgethost fixtures: \(error.message)\n\n\(usage)")
            return ExitCode.usage
        }
        guard options.positional == ["load"] else {
            printError(usage)
            return ExitCode.usage
        }
        do {
            let counts = try load(options)
            print(counts)
            return ExitCode.success
        } catch {
            printError("widgethost fixtures: \(error)")
            return ExitCode.dataError
        }
    }

    /// Opens the demo container under the options' data directory and loads the fixtures into it.
    static func load(_ options: Options) throws -> FixtureLoader.Counts {
        let directory = options["fixtures"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? Fixtures.bundledDirectory
        let fixtures = try Fixtures(directory: directory)
        let container = try AppGroupContainer(identifier: DemoSchema.appGroup, dataDirectory: options.dataDirectory)
        return try FixtureLoader.load(fixtures, into: container)
    }
}
