import Foundation

/// Parsing the API's date-times: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, the shape the OpenAPI document's
/// `dateTimePattern` describes, and nothing before or after it.
///
/// Foundation's ISO 8601 parsers accept trailing characters (`2026-01-01T00:00:00Z*` parses), so the shape is
/// checked byte by byte first; a request whose date the schema refuses must be refused here too.
enum ISO8601Text {
    /// The instant `text` names, or nil when it is not exactly an ISO 8601 date-time with a time zone.
    static func date(from text: String) -> Date? {
        guard hasDateTimeShape(text) else { return nil }
        if let date = wholeSecondUTCDate(text) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// True when `text` is digits and separators in the date-time shape, with a `Z` or `±HH:MM` zone at the end.
    static func hasDateTimeShape(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Bool {
            range.upperBound <= bytes.count && range.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[$0]) }
        }
        func byte(_ index: Int, _ character: Unicode.Scalar) -> Bool {
            index < bytes.count && bytes[index] == UInt8(ascii: character)
        }
        guard digits(0..<4), byte(4, "-"), digits(5..<7), byte(7, "-"), digits(8..<10), byte(10, "T"),
              digits(11..<13), byte(13, ":"), digits(14..<16), byte(16, ":"), digits(17..<19) else { return false }
        var index = 19
        if byte(index, ".") {
            let start = index + 1
            index = start
            while digits(index..<(index + 1)) { index += 1 }
            guard index > start, index - start <= 9 else { return false }
        }
        if byte(index, "Z") { return index + 1 == bytes.count }
        guard byte(index, "+") || byte(index, "-") else { return false }
        return index + 6 == bytes.count && digits((index + 1)..<(index + 3)) && byte(index + 3, ":")
            && digits((index + 4)..<(index + 6))
    }

    /// The instant of `YYYY-MM-DDTHH:MM:SSZ` (already checked to have that shape), computed here rather than by
    /// Foundation's parser, which costs several microseconds; nil for other shapes and for anything Foundation might
    /// read differently (years before 1600, where its calendar is Julian; a day past the month's end; second 60).
    static func wholeSecondUTCDate(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            guard bytes.count == 20, bytes[19] == UInt8(ascii: "Z") else { return nil }
            func number(_ range: Range<Int>) -> Int {
                range.reduce(0) { $0 * 10 + Int(bytes[$1] &- UInt8(ascii: "0")) }
            }
            let (year, month, day) = (number(0..<4), number(5..<7), number(8..<10))
            let (hour, minute, second) = (number(11..<13), number(14..<16), number(17..<19))
            guard year >= 1600, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
                  hour <= 23, minute <= 59, second <= 59 else { return nil }
            let days = daysSince1970(year: year, month: month, day: day)
            return Date(timeIntervalSince1970: Double(((days * 24 + hour) * 60 + minute) * 60 + second))
        }
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days-from-civil algorithm).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
