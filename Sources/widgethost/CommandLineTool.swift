import Foundation
import WidgetHostCommandLine

/// Dispatches `widgethost <subcommand> ...` to the subcommand that handles it.
///
/// Exit codes, for every subcommand: 0 success, 1 the command ran and found a problem (a lint error, no route
/// matched), 2 bad usage (unknown subcommand or option), 3 the data could not be opened or written.
enum CommandLineTool {
    static let usage = """
        usage: widgethost <command> [options]

        commands:
          serve                     run the daemon: the HTTP/JSON API on 127.0.0.1:8787 (see serve --help)
          demo                      load the fixtures into the default container and print what it holds
          fixtures load             load Fixtures/*.json into an App Group container
          route <url>|-             route a deep link through Routes/ (--json); -: every line of stdin
          routes lint|explain|build work with route tables
          perform <IntentName>      perform an interactive intent (--param k=v, --dry-run, --json)
          stack create|rank|list|delete   Smart Stacks of the demo engine: which widget is on top, and why
          taps record|report        record widget taps; counts, broken links, CSV/JSON/SVG reports
          activities list|show|start|update|end|push|screen|rotate-token|chart   Live Activities of the demo engine
          push check|submit|decisions|outbox   check a payload; the push planner: submit states, its decisions, the outbox
          controls kinds|list|place|remove|toggle|press|reloads   the demo's controls (Control Center, Lock Screen)
          help                      this text; `widgethost <command> --help` for one command

        common options:
          --data-dir DIR            where containers live (default: ./data, or $WIDGETHOST_DATA)
        """

    /// Runs the subcommand `arguments` name. An argument that is not UTF-8 is refused (exit 2) with its position and
    /// first bad byte, except the URL of `route <url>`, which is routed as the bytes it is.
    static func run(_ arguments: [CommandLineArgument]) -> Int32 {
        guard let first = arguments.first else {
            printError(usage)
            return ExitCode.usage
        }
        if first.text == "route" || first.text == "routes" { return RouteCommands.run(arguments) }
        guard let arguments = arguments.textOrRefusal() else { return ExitCode.usage }
        let (command, rest) = (arguments[0], Array(arguments.dropFirst()))
        switch command {
        case "serve": return ServeCommand.run(rest, app: DemoEngine.app)
        case "demo": return DemoCommand.run(rest)
        case "fixtures": return FixturesCommand.run(rest)
        case "perform": return PerformCommand.run(rest, app: DemoEngine.app)
        case "stack": return StackCommand.run(rest)
        case "taps": return TapsCommand.run(rest)
        case "activities": return ActivitiesCommand.run(rest)
        case "push" where rest.first == "check": return PushCheckCommand.run(Array(rest.dropFirst()))
        case "push": return PushCommand.run(rest)
        case "controls": return ControlsCommand.run(rest)
        case "help", "--help", "-h":
            print(usage)
            return ExitCode.success
        default:
            printError("widgethost: unknown command '\(command)'\n\n\(usage)")
            return ExitCode.usage
        }
    }
}
