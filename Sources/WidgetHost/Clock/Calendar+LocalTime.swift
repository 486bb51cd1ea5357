import Foundation

extension Calendar {
    /// A Gregorian calendar in `timeZone`: what a device set to that zone uses for "today" and "midnight".
    /// - Parameter timeZone: The device's time zone.
    public static func device(in timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// The first local midnight strictly after `date`.
    ///
    /// Daylight-saving days where midnight does not exist (some zones skip 00:00) resolve to the first instant of
    /// the next day, which is what `startOfDay(for:)` answers.
    /// - Parameter date: The instant to start from.
    /// - Returns: The start of the next local day.
    public func nextMidnight(after date: Date) -> Date {
        let today = startOfDay(for: date)
        guard let tomorrow = self.date(byAdding: .day, value: 1, to: today) else {
            preconditionFailure("Gregorian calendar could not add one day to \(today)")
        }
        return startOfDay(for: tomorrow)
    }
}
