// The widgethost command: `serve` (the daemon) and one-shot subcommands.
import Foundation
import SharedState

exit(CommandLineTool.run(CommandLineArgument.current()))
