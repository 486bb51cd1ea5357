import Foundation

/// Generated date-time texts for the agreement tests.
struct DateTimeSample {
    /// The text under test.
    var text: String
    /// The text without its fraction.
    var wholeSecondsText: String
    /// The fraction's value in seconds.
    var fraction: Double

    /// A valid date-time: any day of any month, an optional 1 to 9 digit fraction, `Z` or an offset up to ±23:59.
    static func valid(using generator: inout SeededGenerator, years: ClosedRange<Int>) -> DateTimeSample {
        let year = Int.random(in: years, using: &generator)
        let month = Int.random(in: 1...12, using: &generator)
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        let day = Int.random(in: 1...days, using: &generator)
        let time = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, Int.random(in: 0...23, using: &generator),
                          Int.random(in: 0...59, using: &generator), Int.random(in: 0...59, using: &generator))
        var fraction = ""
        if Bool.random(using: &generator) {
            let digits = Int.random(in: 1...9, using: &generator)
            fraction = "." + String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
        }
        var zone = "Z"
        if Bool.random(using: &generator) {
            // Foundation refuses offsets from 18:00 on; the reader takes up to 23:59.
            zone = String(format: "%@%02d:%02d", Bool.random(using: &generator) ? "+" : "-",
                          Int.random(in: 0...17, using: &generator), Int.random(in: 0...59, using: &generator))
        }
        return DateTimeSample(text: time + fraction + zone, wholeSecondsText: time + zone,
                              fraction: fraction.isEmpty ? 0 : Double("0" + fraction)!)
    }

    /// `text` with one byte changed, inserted or removed: digits out of range, separators, letters, a NUL.
    static func mutate(_ text: String, using generator: inout SeededGenerator) -> String {
        var bytes = Array(text.utf8)
        let replacements: [UInt8] = Array("0123456789-:.TZtz +\u{0}x".utf8) + [0xC3]
        let position = Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: bytes.insert(replacements.randomElement(using: &generator)!, at: position)
        case 1: bytes.remove(at: position)
        default: bytes[position] = replacements.randomElement(using: &generator)!
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A deterministic generator (SplitMix64), so a failure names a reproducible text.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
