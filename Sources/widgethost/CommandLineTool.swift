import Foundation

/// Dispatches `widgethost <subcommand> ...` to the subcommand that handles it.
enum CommandLineTool {
    static func run(_ arguments: [String]) -> Int32 {
        if arguments.first == "route" || arguments.first == "routes" { return RouteCommands.run(arguments) }
        print("widgethost: not built yet")
        return 0
    }
}
