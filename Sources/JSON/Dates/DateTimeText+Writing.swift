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
        let interval = date.timeIntervalSince1970
        guard interval.isFinite, writableSeconds.contains(interval) else {
            return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: fractionDigits > 0))
        }
        let whole = interval.rounded(.down)
        let seconds = Int(whole)
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (dayNumber, second) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        let civil = CivilCalendar.date(daysSince1970: dayNumber)
        var text = padded(civil.year, 4) + "-" + padded(civil.month, 2) + "-" + padded(civil.day, 2) + "T"
        text += padded(second / 3600, 2) + ":" + padded(second / 60 % 60, 2) + ":" + padded(second % 60, 2)
        if fractionDigits > 0 {
            let digits = min(fractionDigits, 9)
            var scale = 1.0
            for _ in 0..<digits { scale *= 10 }
            let fraction = min(Int(((interval - whole) * scale).rounded(.down)), Int(scale) - 1)
            text += "." + padded(fraction, digits)
        }
        return text + "Z"
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
