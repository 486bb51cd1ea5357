import Foundation

/// The one reader of date-time texts: RFC 3339 `date-time`s in the shape ``DateTimeFormat`` describes, every field
/// checked against its range, nothing rolled forward (`2026-02-30`, hour `24`, second `60` are refused), nothing
/// before or after the date-time.
///
/// Dates are computed here, in the proleptic Gregorian calendar, rather than by Foundation's ISO 8601 parser, which
/// rolls impossible dates forward, accepts trailing text, and loads ICU's zone data (megabytes resident) for UTC.
/// A fraction of up to 9 digits is kept to the precision of `Date` (a `Double` of seconds since 1970: about 0.24 µs
/// near 2026); whole seconds are exact.
public enum DateTimeText {
    /// The instant `text` names.
    /// - Parameters:
    ///   - text: The date-time, e.g. `2026-11-29T14:00:00Z` or `2026-11-29T15:00:00.250+01:00`.
    ///   - format: The years and zones taken.
    /// - Returns: The instant.
    /// - Throws: ``DateTimeError`` naming the first part at fault and its byte offset.
    public static func date(from text: String, format: DateTimeFormat = .instant) throws(DateTimeError) -> Date {
        func read(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Date, DateTimeError> {
            Result { () throws(DateTimeError) in try date(utf8: bytes, format: format) }
        }
        let result = text.utf8.withContiguousStorageIfAvailable(read) ?? Array(text.utf8).withUnsafeBufferPointer(read)
        return try result.get()
    }

    /// The instant the UTF-8 bytes `bytes` name; see ``date(from:format:)``.
    public static func date(utf8 bytes: UnsafeBufferPointer<UInt8>, format: DateTimeFormat = .instant)
        throws(DateTimeError) -> Date {
        var reader = DateTimeReader(bytes: bytes)
        let year = try reader.number(digits: 4, naming: "a four-digit year")
        try reader.expect("-", "'-' after the year")
        let month = try reader.number(digits: 2, naming: "a two-digit month")
        try reader.expect("-", "'-' after the month")
        let day = try reader.number(digits: 2, naming: "a two-digit day")
        try reader.expect("T", "'T' between the date and the time")
        let hour = try reader.number(digits: 2, naming: "a two-digit hour")
        try reader.expect(":", "':' after the hour")
        let minute = try reader.number(digits: 2, naming: "a two-digit minute")
        try reader.expect(":", "':' after the minute")
        let second = try reader.number(digits: 2, naming: "two-digit seconds")
        let fraction = try reader.fraction()
        let zoneOffset = reader.index
        let zone = try reader.zone()
        guard reader.isAtEnd else { throw DateTimeError(.shape(expected: "the end of the text"), at: reader.index) }

        guard format.years.contains(year) else { throw DateTimeError(.year(year, allowed: format.years), at: 0) }
        guard (1...12).contains(month) else { throw DateTimeError(.month(month), at: 5) }
        let days = CivilCalendar.days(inMonth: month, year: year)
        guard (1...days).contains(day) else {
            throw DateTimeError(.day(day, month: month, year: year, days: days), at: 8)
        }
        guard hour <= 23 else { throw DateTimeError(.hour(hour), at: 11) }
        guard minute <= 59 else { throw DateTimeError(.minute(minute), at: 14) }
        guard second <= 59 else { throw DateTimeError(.second(second), at: 17) }
        var offsetSeconds = 0
        if let zone {
            guard format.zones == .utcOrOffset else { throw DateTimeError(.offsetNotTaken, at: zoneOffset) }
            guard zone.hours <= 23, zone.minutes <= 59 else {
                throw DateTimeError(.offset(hours: zone.hours, minutes: zone.minutes), at: zoneOffset)
            }
            offsetSeconds = zone.sign * (zone.hours * 3600 + zone.minutes * 60)
        }
        let dayNumber = CivilCalendar.daysSince1970(year: year, month: month, day: day)
        let seconds = ((dayNumber * 24 + hour) * 60 + minute) * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }
}

/// A zone offset as written: sign, hours, minutes (nil for `Z`).
struct ZoneOffset {
    var sign: Int
    var hours: Int
    var minutes: Int
}

/// A cursor over a date-time's bytes that reads its fixed-width parts.
struct DateTimeReader {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { index == bytes.count }

    private func isDigit(at position: Int) -> Bool {
        position < bytes.count && bytes[position] >= UInt8(ascii: "0") && bytes[position] <= UInt8(ascii: "9")
    }

    /// Reads exactly `digits` decimal digits.
    mutating func number(digits: Int, naming what: String) throws(DateTimeError) -> Int {
        var value = 0
        for position in index..<(index + digits) {
            guard isDigit(at: position) else { throw DateTimeError(.shape(expected: what), at: index) }
            value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
        }
        index += digits
        return value
    }

    /// Reads the byte `character`.
    mutating func expect(_ character: Unicode.Scalar, _ what: String) throws(DateTimeError) {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else {
            throw DateTimeError(.shape(expected: what), at: index)
        }
        index += 1
    }

    /// Reads an optional `.` and 1 to 9 digits, as seconds.
    mutating func fraction() throws(DateTimeError) -> Double {
        guard index < bytes.count, bytes[index] == UInt8(ascii: ".") else { return 0 }
        let start = index + 1
        var end = start
        var value = 0
        while isDigit(at: end) {
            if end - start < 9 { value = value * 10 + Int(bytes[end] - UInt8(ascii: "0")) }
            end += 1
        }
        guard end > start else { throw DateTimeError(.shape(expected: "a digit after '.'"), at: start) }
        guard end - start <= 9 else { throw DateTimeError(.fraction(digits: end - start), at: start) }
        index = end
        var scale = 1.0
        for _ in start..<end { scale *= 10 }
        return Double(value) / scale
    }

    /// Reads `Z` (nil) or `±HH:MM`.
    mutating func zone() throws(DateTimeError) -> ZoneOffset? {
        let expected = "Z or an offset such as +01:00"
        guard index < bytes.count else { throw DateTimeError(.shape(expected: expected), at: index) }
        switch bytes[index] {
        case UInt8(ascii: "Z"):
            index += 1
            return nil
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = bytes[index] == UInt8(ascii: "+") ? 1 : -1
            index += 1
            let hours = try number(digits: 2, naming: "the offset's two-digit hours")
            try expect(":", "':' in the offset")
            let minutes = try number(digits: 2, naming: "the offset's two-digit minutes")
            return ZoneOffset(sign: sign, hours: hours, minutes: minutes)
        default:
            throw DateTimeError(.shape(expected: expected), at: index)
        }
    }
}
