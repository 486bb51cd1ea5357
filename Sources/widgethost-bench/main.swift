// widgethost-bench: release-mode benchmarks that print a table with their peers measured in the same run.
//
// Usage: widgethost-bench [case] [options]; cases: store, routes, timelines, intents, taps, push, memory, apns,
// postgres, outbox, push-postgres, all (the default; apns is not in all: it starts nginx and a Python peer; postgres,
// outbox and push-postgres need --postgres URL, see Benchmarks/postgres-bench.sh; outbox-sender is outbox's child
// process);
// routes-profile SIZE ROUNDS MODE is a fixed workload for callgrind (see RouteProfile.swift).
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let benchmarkCase = arguments.first ?? "all"
let options = Array(arguments.dropFirst())

// Not for the child processes and the callgrind workload, whose output is read or kept short.
if !["outbox-sender", "routes-profile"].contains(benchmarkCase), !options.contains("--prepare") {
    #if DEBUG
    let optimization = "debug build (not for figures)"
    #else
    let optimization = "release build"
    #endif
    print("widgethost-bench: \(optimization), Swift runtime \(SwiftRuntimeLinking.description)")
}

do {
    switch benchmarkCase {
    case "store":
        try StoreBenchmark.run(arguments: options)
    case "routes":
        RouteBenchmark.run(options)
    case "routes-profile":
        RouteProfile.run(options)
    case "timelines":
        try await TimelineBenchmark.run(arguments: options)
    case "intents":
        try await IntentBenchmark.run(arguments: options)
    case "taps":
        try TapBenchmark.run(arguments: options)
    case "push":
        try PushBenchmark.run(arguments: options)
    case "memory":
        try await MemoryBenchmark.run(arguments: options)
    case "apns":
        try APNsBenchmark.run(arguments: options)
    case "postgres":
        try PostgresBenchmark.run(arguments: options)
    case "outbox":
        try OutboxBenchmark.run(arguments: options)
    case "outbox-sender":
        try OutboxSenderProcess.run(arguments: options)
    case "push-postgres":
        try PushStoreBenchmark.run(arguments: options)
    case "all":
        try StoreBenchmark.run(arguments: [])
        RouteBenchmark.run([])
        try await TimelineBenchmark.run(arguments: [])
        try await IntentBenchmark.run(arguments: [])
        try TapBenchmark.run(arguments: [])
        try PushBenchmark.run(arguments: [])
        try await MemoryBenchmark.run(arguments: [])
    default:
        FileHandle.standardError.write(
            Data("usage: widgethost-bench [store | routes | timelines | intents | taps | push | memory | apns | postgres | outbox | push-postgres | all] [options]\n".utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("widgethost-bench \(benchmarkCase): \(error)\n".utf8))
    exit(1)
}
