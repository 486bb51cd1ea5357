// A static (non-configurable) widget's provider in the completion-handler style of iOS 14.
import Foundation
import WidgetKit

struct QuoteEntry: TimelineEntry {
    let date: Date
    let quote: String
    var relevance: TimelineEntryRelevance? {
        TimelineEntryRelevance(score: quote.isEmpty ? 0 : 10, duration: 3600)
    }
}

struct PlainEntry: TimelineEntry {
    let date: Date
}

struct DailyQuoteProvider: TimelineProvider {
    static let quotes = ["Simplicity is prerequisite for reliability.", "Make it work, make it right."]

    func placeholder(in context: Context) -> QuoteEntry {
        QuoteEntry(date: Date(), quote: "…")
    }

    func getSnapshot(in context: Context, completion: @escaping (QuoteEntry) -> Void) {
        completion(QuoteEntry(date: Date(), quote: Self.quotes[0]))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<QuoteEntry>) -> Void) {
        let now = Date()
        let calendar = Calendar(identifier: .gregorian)
        let midnight = calendar.startOfDay(for: calendar.date(byAdding: .day, value: 1, to: now)!)
        let day = calendar.ordinality(of: .day, in: .era, for: now) ?? 0
        let entry = QuoteEntry(date: now, quote: Self.quotes[day % Self.quotes.count])
        completion(Timeline(entries: [entry], policy: .after(midnight)))
        WidgetCenter.shared.getCurrentConfigurations { result in
            if case .success(let widgets) = result, widgets.isEmpty {
                return
            }
        }
    }
}
