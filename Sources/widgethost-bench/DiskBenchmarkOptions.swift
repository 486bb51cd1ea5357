import Foundation

/// The options of the benchmarks that measure durable writes: where their files go, how many rounds, how long
/// each measurement runs.
struct DiskBenchmarkOptions {
    var directory = FileManager.default.temporaryDirectory
    var rounds: Int
    var seconds: Double

    /// Parses `--dir PATH --rounds N --seconds S` over the given defaults.
    /// - Throws: ``BenchmarkUsage`` for an unknown option.
    init(_ arguments: [String], rounds: Int, seconds: Double) throws {
        self.rounds = rounds
        self.seconds = seconds
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--dir": directory = URL(fileURLWithPath: try BenchmarkOptionValue.path(argument, iterator.next()))
            case "--rounds": self.rounds = try BenchmarkOptionValue.integer(argument, iterator.next(), in: 1...Int.max)
            case "--seconds": self.seconds = try BenchmarkOptionValue.seconds(argument, iterator.next(), atLeast: 0.1)
            default:
                throw BenchmarkUsage(message: "unknown option \(argument); options: --dir PATH --rounds N --seconds S")
            }
        }
    }

    /// A fresh scratch directory for one benchmark under `directory`; the caller removes it.
    func scratchDirectory(_ name: String) throws -> URL {
        let work = directory.appendingPathComponent("widgethost-bench-\(name)-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        return work
    }
}
