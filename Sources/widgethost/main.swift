// The widgethost command: one-shot subcommands; `serve` arrives with the daemon issue.
import Foundation
import SharedState

exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst())))
