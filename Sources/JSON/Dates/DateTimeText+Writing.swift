import Foundation

extension DateTimeText {
    /// The instants ``string(from:fractionDigits:)`` writes itself: years 0001 to 9999.
    static let writableSeconds: Range<Double> = -62_135_596_800..<253_402_300_800

    /// `date` as a UTC date-time that ``date(from:format:)`` reads back: `2026-12-01T09:00:00Z`, or with
    /// `fractionDigits` (1 to 9) digits of the second, rounded down (`2026-12-01T09:00:00.123Z`).
    ///
    /// Seconds are rounded down, as `JSONEncoder`'s `.iso8601` strategy shows them, and from 1582 on the text is the
    /// one that strategy writes. Before 1582 Foundation's formatter switches to the Julian calendar; this writes the
    /// proleptic Gregorian dates ISO 8601 asks for and the reader reads back. Outside years 0001 to 9999, which no
    /// date-time text can hold, `Date.ISO8601FormatStyle` writes what it can.
    public static func string(from date: Date, fractionDigits: Int = 0) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(30)
        write(date, fractionDigits: fractionDigits, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``string(from:fractionDigits:)``'s text to `bytes`, digit by digit: JSON bodies and log lines write
    /// dates on every request, so no intermediate strings are made.
    package static func write(_ date: Date, fractionDigits: Int = 0, into bytes: inout [UInt8]) {
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, writableSeconds.contains(interval) else {
            let text = date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: fractionDigits > 0))
            bytes.append(contentsOf: text.utf8)
            return
        }
        let whole = interval.rounded(.down)
        let (days, secondOfDay) = Int(whole).quotientAndRemainder(dividingBy: 86_400)
        let (dayNumber, second) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        let civil = CivilCalendar.date(daysSince1970: dayNumber)
        appendDigits(civil.year, count: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(civil.month, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(civil.day, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(second / 3600, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(second / 60 % 60, count: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(second % 60, count: 2, to: &bytes)
        if fractionDigits > 0 {
            let digits = min(fractionDigits, 9)
            var scale = 1
            for _ in 0..<digits { scale *= 10 }
            let fraction = min(Int(((interval - whole) * Double(scale)).rounded(.down)), scale - 1)
            bytes.append(UInt8(ascii: "."))
            appendDigits(fraction, count: digits, to: &bytes)
        }
        bytes.append(UInt8(ascii: "Z"))
    }

    /// Appends `value` (0 ≤ value < 10^count) in decimal, zero-padded to `count` digits.
    private static func appendDigits(_ value: Int, count: Int, to bytes: inout [UInt8]) {
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
