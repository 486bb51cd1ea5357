import Foundation
import JSON
import Testing
import WidgetKit
@testable import WidgetHost

/// An entry with the shapes providers return: nested values, escapes, non-ASCII, doubles, dates, relevance.
private struct ForecastEntry: TimelineEntry, Encodable {
    struct Hour: Encodable {
        var at: Date
        var temperature: Double
        var sky: String?
    }

    var date: Date
    var relevance: TimelineEntryRelevance?
    var city = "Zürich \"Nord\" / \t 🌧"
    var hours: [Hour]
    var ratios: [String: Double] = ["wind": 0.1 + 0.2, "rain": 1.0, "Sun": -0.0, "ß": 1e21]
    var code: Int8 = -3
    var nothing: String? = nil
}

/// An entry that cannot be encoded by the text encoder (`Decimal`): JSONEncoder's route, stored as a value.
private struct PriceEntry: TimelineEntry, Encodable {
    var date: Date
    var price = Decimal(string: "12.50")!
}

/// An entry the text encoder refuses only when it holds a price (`Decimal`): a timeline of both kinds.
private struct SometimesPricedEntry: TimelineEntry, Encodable {
    var date: Date
    var label: String
    var price: Decimal?
}

/// An entry that is not `Encodable`, read through `Mirror`.
private struct MirroredEntry: TimelineEntry {
    var date: Date
    var label = "mirrored"
    var count = 3
}

@Suite("Entry content written straight to the stored text: the bytes the JSONValue route stored")
struct EntryContentTextTests {
    static let base = Date(timeIntervalSinceReferenceDate: 815_000_000.5)

    fileprivate static func entries() -> [ForecastEntry] {
        (0..<6).map { index in
            ForecastEntry(
                date: base.addingTimeInterval(Double(index) * 3600),
                relevance: index.isMultiple(of: 2) ? TimelineEntryRelevance(score: Float(index) / 3, duration: 60) : nil,
                hours: (0..<index).map { hour in
                    .init(at: base.addingTimeInterval(Double(hour) * 60.25), temperature: Double(hour) * 1.5 - 2,
                          sky: hour.isMultiple(of: 3) ? nil : "clear\n\u{1}")
                })
        }
    }

    /// The content as the engine built it before: the encoded value, `date` and `relevance` taken out.
    static func contentViaValue(_ entry: some Encodable) throws -> JSONValue {
        guard case .object(var members) = try JSONValueEncoder.encode(entry) else { throw CancellationError() }
        members["date"] = nil
        members["relevance"] = nil
        return .object(members)
    }

    @Test("a timeline's stored text is byte for byte the one stored from JSONValue contents")
    func storedTextUnchanged() throws {
        let entries = Self.entries()
        let direct = EntryContentEncoder.snapshots(of: entries)
        #expect(direct.allSatisfy { $0.contentText != nil })
        let viaValue = try entries.map { entry in
            EntrySnapshot(date: entry.date, relevanceScore: entry.relevance?.score,
                          relevanceDuration: entry.relevance?.duration, content: try Self.contentViaValue(entry))
        }
        for policy in [ReloadPolicyRecord.atEnd, .never, .after(Self.base.addingTimeInterval(90))] {
            let text = try StoredTimeline(entries: direct, policy: policy, generatedAt: Self.base).storedText()
            let expected = try StoredTimeline(entries: viaValue, policy: policy, generatedAt: Self.base).storedText()
            #expect(text == expected)
            let readBack = try EngineCoding.value(StoredTimeline.self, from: text, column: "timeline")
            #expect(readBack.entries == viaValue && readBack.entries == direct)
        }
        // Read when asked: the same value, equal and hashing alike.
        #expect(direct.map(\.content) == viaValue.map(\.content))
        #expect(Set(direct) == Set(viaValue))
        #expect(direct[2].relevanceScore == Float(2) / 3 && direct[1].relevanceScore == nil)
    }

    @Test("content set afterwards replaces the text; Decimal and non-Encodable entries keep their old routes")
    func otherRoutes() throws {
        var snapshot = EntryContentEncoder.snapshot(of: Self.entries()[1])
        snapshot.content = .object(["replaced": .bool(true)])
        #expect(snapshot.contentText == nil)
        let timeline = StoredTimeline(entries: [snapshot], policy: .atEnd, generatedAt: Self.base)
        #expect(try timeline.storedText().contains(#""content":{"replaced":true}"#))

        let price = EntryContentEncoder.snapshot(of: PriceEntry(date: Self.base))
        #expect(price.contentText == nil && price.content == .object(["price": .double(12.5)]))
        let mirrored = EntryContentEncoder.snapshot(of: MirroredEntry(date: Self.base))
        #expect(mirrored.content == .object(["label": .string("mirrored"), "count": .int(3)]))
        // The same through a whole timeline, whose conformance is looked up once.
        #expect(EntryContentEncoder.snapshots(of: [PriceEntry(date: Self.base)]) == [price])
        #expect(EntryContentEncoder.snapshots(of: [MirroredEntry(date: Self.base)]) == [mirrored])
    }

    @Test("a timeline mixing entries the text encoder writes and refuses keeps their order and contents")
    func mixedTimeline() throws {
        let entries = (0..<7).map { index in
            SometimesPricedEntry(date: Self.base.addingTimeInterval(Double(index) * 60), label: "entry \(index) \u{1}",
                                 price: index.isMultiple(of: 3) ? Decimal(index) + Decimal(string: "0.25")! : nil)
        }
        let snapshots = EntryContentEncoder.snapshots(of: entries)
        #expect(snapshots.map { $0.contentText == nil } == entries.map { $0.price != nil })
        #expect(snapshots.map(\.date) == entries.map(\.date))
        for (snapshot, entry) in zip(snapshots, entries) {
            var expected: [String: JSONValue] = ["label": .string(entry.label)]
            if let price = entry.price { expected["price"] = .double(NSDecimalNumber(decimal: price).doubleValue) }
            #expect(snapshot.content == .object(expected))
        }
        let viaValue = try zip(entries, snapshots).map { entry, snapshot in
            EntrySnapshot(date: entry.date,
                          content: entry.price == nil ? try Self.contentViaValue(entry) : snapshot.content)
        }
        let stored = try StoredTimeline(entries: snapshots, policy: .atEnd, generatedAt: Self.base).storedText()
        #expect(stored == (try StoredTimeline(entries: viaValue, policy: .atEnd, generatedAt: Self.base).storedText()))
    }
}
