import Foundation
import WidgetKit

/// What the daily widget shows: the picture of the day.
public struct DailyEntry: TimelineEntry, Codable, Sendable {
    public var date: Date
    /// The local day, `yyyy-MM-dd`.
    public var day: String
    public var title: String
    public var imageName: String
}

/// The daily widget: one entry for today (dated at today's local midnight) and a reload after the next local
/// midnight, so the picture switches when the day does.
public struct DailyProvider: TimelineProvider, Sendable {
    public init() {}

    public func placeholder(in context: Context) -> DailyEntry {
        DailyEntry(date: DemoEnvironment.now, day: "", title: "Picture of the day", imageName: "placeholder")
    }

    public func getSnapshot(in context: Context, completion: @escaping (DailyEntry) -> Void) {
        completion(entry(at: DemoEnvironment.now))
    }

    public func getTimeline(in context: Context, completion: @escaping (Timeline<DailyEntry>) -> Void) {
        let now = DemoEnvironment.now
        let calendar = DemoEnvironment.calendar
        completion(Timeline(entries: [entry(at: now)], policy: .after(calendar.nextMidnight(after: now))))
    }

    private func entry(at date: Date) -> DailyEntry {
        let calendar = DemoEnvironment.calendar
        let start = calendar.startOfDay(for: date)
        let parts = calendar.dateComponents([.year, .month, .day], from: start)
        let day = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        let item = try? DemoEnvironment.repository?.dailyItem(day: day)
        return DailyEntry(date: start, day: day, title: item?.title ?? "No picture today",
                          imageName: item?.imageName ?? "placeholder")
    }
}
