import Foundation
import Testing
import WidgetKit

@Suite("Timeline model")
struct TimelineModelTests {
    @Test("reload policies compare by kind and date")
    func policyEquality() {
        let date = Date(timeIntervalSince1970: 1_000)
        #expect(TimelineReloadPolicy.atEnd == .atEnd)
        #expect(TimelineReloadPolicy.never == .never)
        #expect(TimelineReloadPolicy.atEnd != .never)
        #expect(TimelineReloadPolicy.after(date) == .after(Date(timeIntervalSince1970: 1_000)))
        #expect(TimelineReloadPolicy.after(date) != .after(date.addingTimeInterval(1)))
        #expect(TimelineReloadPolicy.after(date) != .atEnd)
        #expect(TimelineReloadPolicy.after(date).reloadDate == date)
        #expect(TimelineReloadPolicy.atEnd.reloadDate == nil)
        #expect(TimelineReloadPolicy.never.kind == .never)
    }

    @Test("entries without relevance report nil; relevance keeps score and duration")
    func relevance() throws {
        #expect(PlainEntry(date: Date()).relevance == nil)
        let relevance = try #require(QuoteEntry(date: Date(), quote: "x").relevance)
        #expect(relevance == TimelineEntryRelevance(score: 10, duration: 3600))
        #expect(TimelineEntryRelevance(score: 1).duration == 0)
        let data = try JSONEncoder().encode(relevance)
        #expect(try JSONDecoder().decode(TimelineEntryRelevance.self, from: data) == relevance)
    }

    @Test("a completion-handler provider delivers a timeline reloading at the next midnight")
    func staticProvider() async throws {
        let context = TimelineProviderContext(
            family: .systemSmall, isPreview: false, displaySize: CGSize(width: 170, height: 170))
        let timeline = await withCheckedContinuation { continuation in
            DailyQuoteProvider().getTimeline(in: context) { continuation.resume(returning: $0) }
        }
        #expect(timeline.entries.count == 1)
        let reload = try #require(timeline.policy.reloadDate)
        let calendar = Calendar(identifier: .gregorian)
        #expect(reload > timeline.entries[0].date)
        #expect(calendar.dateComponents([.hour, .minute, .second], from: reload) == DateComponents(hour: 0, minute: 0, second: 0))
        #expect(DailyQuoteProvider().placeholder(in: context).quote == "…")
    }

    @Test("an intent provider reads its configuration")
    func intentProvider() async throws {
        let intent = SelectProjectIntent()
        let parameter = try #require(intent.parameter(named: "project"))
        let garden = try #require(try await parameter.entityQuery()?.entities(forIdentifiers: ["p2"]).first)
        try parameter.assign(entity: garden)
        let context = TimelineProviderContext(family: .systemMedium, isPreview: false, displaySize: CGSize(width: 364, height: 170))
        #expect(context.family == .systemMedium)
        #expect(context.displaySize.width == 364)
        let timeline = await ProjectProvider().timeline(for: intent, in: context)
        #expect(timeline.entries.map(\.projectName) == ["Garden"])
        #expect(timeline.policy.reloadDate != nil)
        #expect(ProjectProvider().recommendations().first?.intent.showCompleted == false)
        #expect(ProjectProvider().recommendations().first?.description == "Open projects")
    }

    @Test("widget families: every case, string raw values, Codable")
    func families() throws {
        #expect(WidgetFamily.allCases.count == 9)
        #expect(WidgetFamily(rawValue: "systemExtraLargePortrait") == .systemExtraLargePortrait)
        #expect(WidgetFamily.accessoryCorner.rawValue == "accessoryCorner")
        let data = try JSONEncoder().encode([WidgetFamily.systemSmall])
        #expect(String(decoding: data, as: UTF8.self) == "[\"systemSmall\"]")
    }
}
