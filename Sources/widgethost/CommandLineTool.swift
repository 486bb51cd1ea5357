import Foundation

/// Dispatches `widgethost <subcommand> ...` to the subcommand that handles it.
enum CommandLineTool {
    static func run(_ arguments: [String]) -> Int32 {
        print("widgethost: not built yet")
        return 0
    }
}
