import AppIntents
import Foundation
import Synchronization
import WidgetHost
import WidgetKit

/// A plain entry for test providers.
struct CountEntry: TimelineEntry, Sendable {
    var date: Date
    var label: String
    var relevance: TimelineEntryRelevance?
}

/// Counts provider runs across all instances of a provider type.
final class RunCounter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// A static provider whose timeline a test chooses: entries at offsets (seconds from now) and a policy maker.
struct ScriptedProvider: TimelineProvider, Sendable {
    var offsets: [TimeInterval]
    var policy: @Sendable (Date) -> TimelineReloadPolicy
    var counter = RunCounter()

    func placeholder(in context: Context) -> CountEntry { CountEntry(date: .distantPast, label: "placeholder") }

    func getSnapshot(in context: Context, completion: @escaping (CountEntry) -> Void) {
        completion(CountEntry(date: now, label: context.isPreview ? "snapshot-preview" : "snapshot"))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<CountEntry>) -> Void) {
        counter.increment()
        let now = now
        let entries = offsets.enumerated().map { index, offset in
            CountEntry(date: now.addingTimeInterval(offset), label: "entry-\(index)")
        }
        completion(Timeline(entries: entries, policy: policy(now)))
    }

    private var now: Date { HostEnvironment.current?.now ?? Date() }
}

/// A configurable test intent with every scalar kind the resolver handles.
struct GreetingIntent: WidgetConfigurationIntent {
    static let title: LocalizedStringResource = "Greeting"
    @Parameter(title: "Name", default: "world") var name: String
    @Parameter(title: "Count", default: 1) var count: Int
    @Parameter(title: "Loud") var loud: Bool?
    init() {}
}

struct GreetingProvider: AppIntentTimelineProvider, Sendable {
    let counter = RunCounter()

    func placeholder(in context: Context) -> CountEntry { CountEntry(date: .distantPast, label: "placeholder") }

    func snapshot(for configuration: GreetingIntent, in context: Context) async -> CountEntry {
        CountEntry(date: HostEnvironment.current?.now ?? Date(), label: "snapshot \(configuration.name)")
    }

    func timeline(for configuration: GreetingIntent, in context: Context) async -> Timeline<CountEntry> {
        counter.increment()
        let now = HostEnvironment.current?.now ?? Date()
        let text = String(repeating: "hello \(configuration.name) ", count: configuration.count)
        return Timeline(entries: [CountEntry(date: now, label: configuration.loud == true ? text.uppercased() : text)],
                        policy: .after(now.addingTimeInterval(3600)))
    }
}
