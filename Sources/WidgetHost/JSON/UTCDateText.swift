import Foundation

/// Reading UTC date-times without Foundation's ISO 8601 parser, which builds a Gregorian calendar in the current
/// time zone first: that loads ICU's zone data (several megabytes resident) and costs microseconds per date.
package enum UTCDateText {
    /// The instant of exactly `YYYY-MM-DDTHH:MM:SSZ`, computed here rather than by Foundation's parser; nil for
    /// any other text, and for dates Foundation might read in its own way (years before 1600, where its calendar is
    /// Julian; a day past the month's end; second 60), which callers leave to Foundation.
    package static func wholeSecondDate(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            guard bytes.count == 20 else { return nil }
            var fields: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)
            for index in 0..<20 {
                let byte = bytes[index]
                switch index {
                case 4, 7: guard byte == UInt8(ascii: "-") else { return nil }
                case 10: guard byte == UInt8(ascii: "T") else { return nil }
                case 13, 16: guard byte == UInt8(ascii: ":") else { return nil }
                case 19: guard byte == UInt8(ascii: "Z") else { return nil }
                default:
                    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                    let digit = Int(byte - UInt8(ascii: "0"))
                    switch index {
                    case 0..<4: fields.0 = fields.0 * 10 + digit
                    case 5..<7: fields.1 = fields.1 * 10 + digit
                    case 8..<10: fields.2 = fields.2 * 10 + digit
                    case 11..<13: fields.3 = fields.3 * 10 + digit
                    case 14..<16: fields.4 = fields.4 * 10 + digit
                    default: fields.5 = fields.5 * 10 + digit
                    }
                }
            }
            let (year, month, day, hour, minute, second) = fields
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
