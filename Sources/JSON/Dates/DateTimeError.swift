/// Why a text is not a date-time of the format asked for, and where: `offset` is the index of the first byte of
/// the part at fault.
///
/// The description names the part and the rule it breaks, e.g. `day 30 does not exist in February 2026, which has
/// 28 days (byte 8)`.
public struct DateTimeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Sendable, Hashable {
        /// The text does not have the date-time shape at `offset`: `expected` says what should stand there.
        case shape(expected: String)
        /// The year is outside the format's years.
        case year(Int, allowed: ClosedRange<Int>)
        /// The month is not 01 to 12.
        case month(Int)
        /// The day is not within the month (`days` in that month and year).
        case day(Int, month: Int, year: Int, days: Int)
        /// The hour is not 00 to 23 (`24:00` is refused: write `00:00` of the next day).
        case hour(Int)
        /// The minute is not 00 to 59.
        case minute(Int)
        /// The second is not 00 to 59; `60` (a leap second) has no instant a `Date` can hold.
        case second(Int)
        /// More than 9 fraction digits.
        case fraction(digits: Int)
        /// The format takes UTC (`Z`) only.
        case offsetNotTaken
        /// The offset's hours are not 00 to 23 or its minutes not 00 to 59.
        case offset(hours: Int, minutes: Int)
    }

    /// What is wrong.
    public let problem: Problem
    /// The index of the first byte of the part at fault.
    public let offset: Int

    /// Creates an error.
    public init(_ problem: Problem, at offset: Int) {
        self.problem = problem
        self.offset = offset
    }

    public var description: String { "\(reason) (byte \(offset))" }

    /// The reason without the position.
    public var reason: String {
        switch problem {
        case .shape(let expected):
            return "not a date-time such as 2026-01-01T09:30:00Z: expected \(expected)"
        case .year(let year, let allowed):
            return "year \(Self.fourDigits(year)) is outside \(allowed.lowerBound) to \(allowed.upperBound)"
        case .month(let month):
            return "month \(Self.twoDigits(month)) does not exist (01 to 12)"
        case .day(let day, let month, let year, let days):
            return "day \(Self.twoDigits(day)) does not exist in \(Self.monthNames[month - 1]) \(Self.fourDigits(year)), "
                + "which has \(days) days"
        case .hour(let hour):
            return hour == 24 ? "hour 24 does not exist (00 to 23): write 00:00 of the next day"
                : "hour \(Self.twoDigits(hour)) does not exist (00 to 23)"
        case .minute(let minute):
            return "minute \(Self.twoDigits(minute)) does not exist (00 to 59)"
        case .second(let second):
            return second == 60 ? "second 60 (a leap second) is not taken: no Date holds it (00 to 59)"
                : "second \(Self.twoDigits(second)) does not exist (00 to 59)"
        case .fraction(let digits):
            return "the fraction has \(digits) digits, at most 9 are taken"
        case .offsetNotTaken:
            return "only UTC is taken here: end the date-time with Z"
        case .offset(let hours, let minutes):
            return "offset \(Self.twoDigits(hours)):\(Self.twoDigits(minutes)) does not exist (-23:59 to +23:59)"
        }
    }

    private static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                                     "September", "October", "November", "December"]

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    private static func fourDigits(_ value: Int) -> String {
        String(repeating: "0", count: max(0, 4 - String(value).count)) + String(value)
    }
}
