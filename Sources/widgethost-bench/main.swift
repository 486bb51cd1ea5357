// widgethost-bench: release-mode benchmarks that print a table with their peers measured in the same run.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "routes":
    RouteBenchmark.run(Array(arguments.dropFirst()))
case "all", nil:
    RouteBenchmark.run([])
default:
    print("usage: widgethost-bench routes [--export DIR] | all")
    exit(2)
}
