/// The values of the benchmarks' numeric options, parsed strictly: a value that is missing, not a number, or outside
/// the option's range is refused with the option's name and range, never replaced by a default or clamped.
enum BenchmarkOptionValue {
    /// The integer after `option`, within `range`.
    static func integer(_ option: String, _ text: String?, in range: ClosedRange<Int>) throws -> Int {
        guard let text else { throw BenchmarkUsage(message: "\(option) needs a value (\(describe(range)))") }
        guard let value = Int(text), range.contains(value) else {
            throw BenchmarkUsage(message: "\(option) takes a whole number \(describe(range)), got \"\(text)\"")
        }
        return value
    }

    /// The number of seconds after `option`, at least `minimum` (finite).
    static func seconds(_ option: String, _ text: String?, atLeast minimum: Double) throws -> Double {
        guard let text else { throw BenchmarkUsage(message: "\(option) needs a number of seconds (at least \(minimum))") }
        guard let value = Double(text), value.isFinite, value >= minimum else {
            throw BenchmarkUsage(message: "\(option) takes a number of seconds of at least \(minimum), got \"\(text)\"")
        }
        return value
    }

    /// The even integer after `option` (connections split between two senders), within `range`.
    static func evenInteger(_ option: String, _ text: String?, in range: ClosedRange<Int>) throws -> Int {
        let value = try integer(option, text, in: range)
        guard value.isMultiple(of: 2) else {
            throw BenchmarkUsage(message: "\(option) takes an even number (split between two senders), got \(value)")
        }
        return value
    }

    /// The path after `option`: present, not empty, without a NUL byte.
    static func path(_ option: String, _ text: String?) throws -> String {
        guard let text, !text.isEmpty, !text.utf8.contains(0) else {
            throw BenchmarkUsage(message: "\(option) needs a directory path")
        }
        return text
    }

    private static func describe(_ range: ClosedRange<Int>) -> String {
        range.upperBound == Int.max ? "of at least \(range.lowerBound)"
            : "from \(range.lowerBound) to \(range.upperBound)"
    }
}
