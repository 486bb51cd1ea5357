import Foundation

/// Times and durations as the activity chart writes them: in UTC, so that a chart reads the same wherever it is
/// opened and lines up with the engine's logs and API, which are in UTC too.
enum ChartTime {
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()

    private static func parts(_ date: Date) -> DateComponents {
        calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    }

    /// The UTC day, `2026-11-25`.
    static func day(_ date: Date) -> String {
        let parts = parts(date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// The UTC time of day, `10:05`, or `10:05:30` with `seconds`.
    static func clock(_ date: Date, seconds: Bool = false) -> String {
        let parts = parts(date)
        let minutes = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        return seconds ? minutes + String(format: ":%02d", parts.second ?? 0) : minutes
    }

    /// Day and time to the second, `2026-11-25 10:05:30 UTC`: what a tooltip says.
    static func stamp(_ date: Date) -> String {
        "\(day(date)) \(clock(date, seconds: true)) UTC"
    }

    /// Whether two dates fall on different UTC days.
    static func differentDays(_ first: Date, _ second: Date) -> Bool {
        !calendar.isDate(first, inSameDayAs: second)
    }

    /// A duration in its two largest units, `1 h 05 min`, `12 min 30 s`, `45 s`: enough to compare spans at a
    /// glance without reading seconds off an hour.
    static func duration(_ interval: TimeInterval) -> String {
        if interval < 1 { return String(format: "%.1f s", max(0, interval)) }
        let total = Int(interval.rounded())
        let (days, hours, minutes, seconds) = (total / 86400, total % 86400 / 3600, total % 3600 / 60, total % 60)
        if days > 0 { return "\(days) d \(hours) h" }
        if hours > 0 { return String(format: "%d h %02d min", hours, minutes) }
        if minutes > 0 { return String(format: "%d min %02d s", minutes, seconds) }
        return "\(seconds) s"
    }
}
