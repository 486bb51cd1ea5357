import Foundation

/// Turns a bucket number (local seconds / bucket size) back into its first instant and a local-time label.
package enum TapBucketing {
    package static func bucket(index: Int64, size: TapTimeBucket, timeZone: TimeZone) -> (start: Date, label: String) {
        let localSeconds = TimeInterval(index * size.seconds)
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let parts = utc.dateComponents([.year, .month, .day, .hour], from: Date(timeIntervalSince1970: localSeconds))
        let label = size == .day
            ? String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
            : String(format: "%04d-%02d-%02dT%02d:00", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
                     parts.hour ?? 0)
        var local = Calendar.device(in: timeZone)
        local.timeZone = timeZone
        var wall = DateComponents(year: parts.year, month: parts.month, day: parts.day,
                                  hour: size == .day ? 0 : parts.hour)
        wall.timeZone = timeZone
        // A local midnight that does not exist (a zone skipping 00:00) starts at the day's first instant.
        let start = local.date(from: wall).map { size == .day ? local.startOfDay(for: $0) : $0 }
            ?? Date(timeIntervalSince1970: localSeconds - TimeInterval(timeZone.secondsFromGMT()))
        return (start, label)
    }

    /// The bucket after `start`, in local time.
    package static func next(after start: Date, size: TapTimeBucket, timeZone: TimeZone) -> Date {
        let calendar = Calendar.device(in: timeZone)
        return calendar.date(byAdding: size == .day ? .day : .hour, value: 1, to: start)
            ?? start.addingTimeInterval(TimeInterval(size.seconds))
    }
}

extension TapBucketing {
    /// The local label of the bucket starting at `start` (`2026-11-25`, or `2026-11-25T10:00` for hours).
    package static func label(of start: Date, size: TapTimeBucket, timeZone: TimeZone) -> String {
        let parts = Calendar.device(in: timeZone).dateComponents([.year, .month, .day, .hour], from: start)
        return size == .day
            ? String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
            : String(format: "%04d-%02d-%02dT%02d:00", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
                     parts.hour ?? 0)
    }

    /// Every bucket from `first` through `last`, in order (at most `limit`).
    package static func sequence(from first: Date, through last: Date, size: TapTimeBucket, timeZone: TimeZone,
                         limit: Int = 5000) -> [Date] {
        var buckets: [Date] = []
        var cursor = first
        while cursor <= last && buckets.count < limit {
            buckets.append(cursor)
            cursor = next(after: cursor, size: size, timeZone: timeZone)
        }
        return buckets
    }
}
