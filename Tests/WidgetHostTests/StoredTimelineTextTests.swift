import Foundation
import JSON
import Testing
@testable import WidgetHost

@Suite("Stored timelines written by the JSON module's writer: JSONEncoder's bytes but for `/`, read back equal")
struct StoredTimelineTextTests {
    static let base = Date(timeIntervalSinceReferenceDate: 815_000_000.123456)

    static let timelines: [StoredTimeline] = [
        StoredTimeline(entries: [EntrySnapshot(date: base, content: .object([:]))], policy: .atEnd,
                       generatedAt: base),
        StoredTimeline(entries: [
            EntrySnapshot(date: base, relevanceScore: 0.1, relevanceDuration: 1800.5, content: .object([
                "label": .string("quote \" slash / tab \t é \u{1}"), "value": .double(0.1 + 0.2),
                "count": .int(-42), "nested": .object(["b": .array([.null, .bool(true), .double(1e-7)]),
                                                       "a": .double(1.5e300)]),
            ])),
            EntrySnapshot(date: base.addingTimeInterval(3600), relevanceScore: 3, content: .string("plain")),
            EntrySnapshot(date: base.addingTimeInterval(-0.25), relevanceDuration: 0, content: .array([])),
        ], policy: .after(base.addingTimeInterval(7200.75)), generatedAt: base.addingTimeInterval(1)),
        StoredTimeline(entries: [EntrySnapshot(date: Date(timeIntervalSinceReferenceDate: -1e9),
                                               relevanceScore: -0.000123, content: .null)],
                       policy: .never, generatedAt: Date(timeIntervalSinceReferenceDate: 0)),
    ]

    @Test("byte for byte what JSONEncoder with sorted keys writes, for every policy, relevance and content shape",
          arguments: timelines.indices)
    func sameBytesAsJSONEncoder(index: Int) throws {
        let timeline = Self.timelines[index]
        let text = try timeline.storedText()
        // The engine's JSONEncoder escapes `/` (`\/`); the writer does not, and both read back the same.
        #expect(text == EngineCoding.text(timeline).replacingOccurrences(of: "\\/", with: "/"))
        #expect(try EngineCoding.value(StoredTimeline.self, from: text, column: "timeline") == timeline)
    }

    @Test("a non-finite number in an entry's content is refused, as JSONEncoder refuses it")
    func nonFiniteRefused() {
        let timeline = StoredTimeline(entries: [EntrySnapshot(date: Self.base, content: .double(.nan))],
                                      policy: .atEnd, generatedAt: Self.base)
        #expect(throws: EncodingError.self) { try timeline.storedText() }
    }

    @Test("lists of instance ids are written as JSONEncoder writes them")
    func stringLists() throws {
        for list in [[], ["w1"], ["a\"b", "c/d", "é", "\u{7}"]] {
            #expect(EngineCoding.text(strings: list)
                    == EngineCoding.text(list).replacingOccurrences(of: "\\/", with: "/"))
            #expect(try EngineCoding.value([String].self, from: EngineCoding.text(strings: list), column: "ids") == list)
        }
    }
}
