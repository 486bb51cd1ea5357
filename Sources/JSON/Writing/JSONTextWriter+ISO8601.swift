import Foundation

extension JSONTextWriter {
    /// Writes a date as `JSONEncoder`'s `.iso8601` strategy does: a string such as `2026-12-01T09:00:00Z`, in UTC,
    /// seconds rounded down.
    ///
    /// Dates from 1970 to 9999 are formatted here, from the whole seconds since the reference date, which is what
    /// Foundation's formatter shows; the rest (where its calendar is Julian, or a date a hair below a whole second
    /// whose millisecond rounding could carry) go through `Date.ISO8601FormatStyle`, which `JSONEncoder` uses.
    package mutating func iso8601(_ date: Date) {
        let reference = date.timeIntervalSinceReferenceDate
        let whole = reference.rounded(.down)
        let sinceEpoch = whole + Date.timeIntervalBetween1970AndReferenceDate
        guard reference - whole < 0.999_999, sinceEpoch >= 0, sinceEpoch < 253_402_300_800 else {
            string(date.formatted(Date.ISO8601FormatStyle()))
            return
        }
        var seconds = time_t(sinceEpoch)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        separate()
        bytes.append(UInt8(ascii: "\""))
        appendDigits(Int(parts.tm_year) + 1900, count: 4)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(Int(parts.tm_mon) + 1, count: 2)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(Int(parts.tm_mday), count: 2)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(Int(parts.tm_hour), count: 2)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(Int(parts.tm_min), count: 2)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(Int(parts.tm_sec), count: 2)
        append("Z\"")
    }

    /// Appends `value` in decimal, zero-padded to `count` digits.
    private mutating func appendDigits(_ value: Int, count: Int) {
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
