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
            case "--dir": directory = URL(fileURLWithPath: iterator.next() ?? directory.path)
            case "--rounds": self.rounds = max(1, Int(iterator.next() ?? "") ?? rounds)
            case "--seconds": self.seconds = max(0.1, Double(iterator.next() ?? "") ?? seconds)
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
