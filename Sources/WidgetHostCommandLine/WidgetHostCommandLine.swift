import Foundation

/// The `serve` and `perform` commands of `widgethost`, over your own widgets: a user's executable is a
/// `main.swift` of a few lines.
///
/// ```swift
/// import HabitWidgets
/// import WidgetHostCommandLine
///
/// WidgetHostCommandLine.main(HostedApp(
///     commandName: "habits-host", appGroup: HabitStore.appGroup,
///     catalog: { HabitWidgets.catalog() }, intents: { HabitWidgets.intents() },
///     prepareContainer: { try HabitStore.migrator.migrate($0.store) }))
/// ```
///
/// `habits-host serve` takes every option of `widgethost serve` (`--data-dir`, `--port`/`--unix`, `--host`,
/// `--token`, `--clock virtual`, `--clock-start`, `--time-zone`, `--routes`, `--log-level`, `--threads`, `--json`)
/// and serves the same `/v1` API; `habits-host perform <Intent> --param k=v` performs one intent. Exit codes are
/// `widgethost`'s: 0 success, 1 the command ran and found a problem, 2 bad usage, 3 the data could not be opened.
public enum WidgetHostCommandLine {
    /// Runs the command in the process's arguments and exits with its status.
    public static func main(_ app: HostedApp) -> Never {
        exit(run(app, arguments: Array(CommandLine.arguments.dropFirst())))
    }

    /// Runs one command (`serve`, `perform`, `help`) and returns its exit status.
    /// - Parameters:
    ///   - app: The widgets, intents, App Group and routes to serve.
    ///   - arguments: The arguments after the executable's name.
    public static func run(_ app: HostedApp, arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            printError(usage(app))
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "serve": return ServeCommand.run(rest, app: app)
        case "perform": return PerformCommand.run(rest, app: app)
        case "help", "--help", "-h":
            print(usage(app))
            return ExitCode.success
        default:
            printError("\(app.commandName): unknown command '\(command)'\n\n\(usage(app))")
            return ExitCode.usage
        }
    }

    static func usage(_ app: HostedApp) -> String {
        """
        usage: \(app.commandName) <command> [options]

        commands:
          serve                 run the daemon: the HTTP/JSON API on 127.0.0.1:8787 (see serve --help)
          perform <IntentName>  perform an interactive intent (--param k=v, --dry-run, --json)
          help                  this text; `\(app.commandName) <command> --help` for one command
        """
    }
}
