import ActivityKit
import Foundation
import JSON
import TapCharts
import Testing
import WidgetHost
#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("Activity chart: one Live Activity's life as SVG")
struct ActivityChartTests {
    static let start = EngineFixture.date("2026-11-25T10:00:00Z")

    static func record(id: String = "act-1", type: String = "DeliveryAttributes", requestedAt: Date = start)
        -> ActivityRecord {
        ActivityRecord(id: id, attributesType: type, attributes: ["orderId": "ORD-1"],
                       content: ActivityContentValue(state: ["etaMinutes": 12]), state: .ended, push: .token,
                       requestedAt: requestedAt)
    }

    /// Events of `act-1` (unless told), in the order given, `offset` seconds after the start.
    static func history(_ changes: [(offset: TimeInterval, change: ActivityEvent.Change)],
                        activityID: String? = "act-1", source: ActivityEventSource = .app) -> [ActivityEvent] {
        changes.enumerated().map { index, item in
            ActivityEvent(sequence: Int64(index + 1), activityID: activityID, at: start.addingTimeInterval(item.offset),
                          source: source, change: item.change)
        }
    }

    static func chart(_ history: [ActivityEvent], until offset: TimeInterval, record: ActivityRecord = record())
        -> ActivityChart {
        ActivityChart(activity: record, history: history, until: start.addingTimeInterval(offset))
    }

    @Test("one segment per state span, each as wide as its share of the window, in order and touching")
    func stateSegments() throws {
        let history = Self.history([
            (0, .state(.active)),
            (60, .content(ActivityContentValue(state: ["etaMinutes": 10]))),
            (600, .state(.stale)),
            (900, .state(.active)),
            (1000, .state(.active)),
            (1500, .state(.ended)),
            (1800, .state(.dismissed)),
        ])
        let svg = try SVGNode.parse(Self.chart(history, until: 3600).svg)
        let segments = svg.descendants { $0.name == "rect" && $0.attributes["class"] == "state" }
        #expect(segments.map { $0.attributes["data-state"] } == ["active", "stale", "active", "ended", "dismissed"])
        let durations: [Double] = [600, 300, 600, 300, 1800]
        let widths = segments.map { $0.number("width") }
        let total = widths.reduce(0, +)
        #expect(total > 500, "the band spans the plot")
        for (width, duration) in zip(widths, durations) {
            #expect(abs(width - total * duration / 3600) < 0.25, "\(widths)")
        }
        for (left, right) in zip(segments, segments.dropFirst()) {
            #expect(abs(left.number("x") + left.number("width") - right.number("x")) < 0.15)
        }
        #expect(segments[1].attributes["fill"] == "url(#stale-hatch)")
        #expect(!svg.descendants { $0.name == "pattern" && $0.attributes["id"] == "stale-hatch" }.isEmpty)
        #expect(segments[0].title?.contains("2026-11-25 10:00:00 UTC to 2026-11-25 10:10:00 UTC") == true)
        #expect(svg.descendants { $0.attributes["class"] == "unrecorded" }.isEmpty)
    }

    @Test("events before the request or after `until` are clipped; time before the first state is unrecorded")
    func clipping() throws {
        let history = Self.history([
            (-300, .content(ActivityContentValue(state: ["early": true]))),
            (-120, .state(.pending)),
            (1200, .state(.active)),
            (1800, .alert(ActivityAlert(title: "Picked up", body: "on its way"))),
            (4000, .token(Data([0xAB]))),
            (5000, .state(.ended)),
        ])
        let svg = try SVGNode.parse(Self.chart(history, until: 3600).svg)
        let segments = svg.descendants { $0.attributes["class"] == "state" }
        #expect(segments.map { $0.attributes["data-state"] } == ["pending", "active"])
        let widths = segments.map { $0.number("width") }
        #expect(abs(widths[0] * 2 - widths[1]) < 0.25, "pending from the request (not before) to 20 min, then 40 min")
        #expect(svg.marks.map { $0.attributes["data-kind"] } == ["alert"])

        let late = Self.history([(1200, .state(.active))])
        let gap = try SVGNode.parse(Self.chart(late, until: 3600).svg)
        let unrecorded = try #require(gap.descendants { $0.attributes["class"] == "unrecorded" }.first)
        let active = try #require(gap.descendants { $0.attributes["class"] == "state" }.first)
        #expect(abs(unrecorded.number("width") * 2 - active.number("width")) < 0.25)
    }

    @Test("marks carry a title with the time and detail; an ignored update is a red cross titled with its reason")
    func marks() throws {
        let ignored = ActivityIgnoredUpdate(reason: .undecodableContentState,
                                            detail: "etaMinutes: expected a number, found \"12\"", event: "update")
        let history = Self.history([
            (0, .state(.active)),
            (60, .content(ActivityContentValue(state: ["etaMinutes": 9], relevanceScore: 0.5))),
            (120, .alert(ActivityAlert(title: "Almost there", body: "2 min", sound: "bell.caf"))),
            (180, .token(Data([0x0A, 0xFF]))),
            (240, .ignored(ignored)),
        ], source: .push) + [
            ActivityEvent(sequence: 99, activityID: "other", at: Self.start.addingTimeInterval(30), source: .app,
                          change: .content(ActivityContentValue(state: [:]))),
            ActivityEvent(sequence: 100, activityID: nil, at: Self.start.addingTimeInterval(30), source: .push,
                          change: .ignored(ActivityIgnoredUpdate(reason: .unknownToken, detail: "no such token"))),
        ]
        let svg = try SVGNode.parse(Self.chart(history, until: 600).svg)
        let marks = svg.marks
        #expect(marks.map { $0.attributes["data-kind"] } == ["content", "alert", "token", "ignored"],
                "other activities' events and pushes that reached none are left out")
        for (mark, clock) in zip(marks, ["10:01:00", "10:02:00", "10:03:00", "10:04:00"]) {
            #expect(mark.title?.hasPrefix("2026-11-25 \(clock) UTC") == true, "\(mark.title ?? "no title")")
        }
        #expect(marks[0].title?.contains(#"{"etaMinutes":9}"#) == true)
        #expect(marks[1].title?.contains("Almost there — 2 min (sound: bell.caf)") == true)
        #expect(svg.texts.contains("Almost there"), "alerts are labelled with their title")
        #expect(marks[2].title?.contains("0aff") == true)
        let cross = marks[3]
        #expect(cross.attributes["data-reason"] == "undecodable_content_state")
        #expect(cross.title?.contains("undecodable_content_state") == true)
        #expect(cross.title?.contains(#"expected a number, found "12""#) == true)
        let strokes = cross.children.filter { $0.name == "line" }
        #expect(strokes.count == 2 && strokes.allSatisfy { $0.attributes["stroke"] == "#d62728" })
    }

    @Test("text with < and & is escaped: the SVG parses and reads back as written")
    func escaping() throws {
        let record = Self.record(id: "a&b<c", type: "Order<&>Attributes")
        let history = Self.history([
            (0, .state(.active)),
            (60, .alert(ActivityAlert(title: "Late <again> & sorry", body: "x"))),
            (90, .ignored(ActivityIgnoredUpdate(reason: .invalidField, detail: "alert: <b> & \"quotes\""))),
        ], activityID: "a&b<c")
        let text = Self.chart(history, until: 600, record: record).svg
        #expect(!text.contains("<again>") && !text.contains("a&b<c"))
        let svg = try SVGNode.parse(text)
        #expect(svg.texts.contains("Order<&>Attributes a&b<c"))
        #expect(svg.children.first { $0.name == "title" }?.text == "Order<&>Attributes a&b<c")
        #expect(svg.texts.contains("Late <again> & sorry"))
        #expect(svg.marks.last?.title?.contains(#"alert: <b> & "quotes""#) == true)
    }

    @Test("a window of no length, or one ending before the request, draws no segment and divides by nothing")
    func zeroLength() throws {
        let history = Self.history([
            (0, .state(.active)),
            (0, .content(ActivityContentValue(state: ["etaMinutes": 5]))),
            (10, .state(.ended)),
        ])
        for until in [0.0, -60] {
            let text = Self.chart(history, until: until).svg
            #expect(!text.lowercased().contains("nan") && !text.lowercased().contains("inf"))
            let svg = try SVGNode.parse(text)
            #expect(svg.descendants { $0.attributes["class"] == "state" }.isEmpty)
            let marks = svg.marks
            #expect(marks.map { $0.attributes["data-kind"] } == ["content"], "an event at the instant is drawn")
            let axis = try #require(svg.descendants { $0.attributes["class"] == "axis" }.first)
            #expect(axis.descendants { $0.name == "text" }.map(\.text) == ["10:00", "time (UTC)"])
            let window = "requested 2026-11-25 10:00:00 UTC, shown to 2026-11-25 10:00:00 UTC (0.0 s)"
            #expect(svg.texts.contains { $0.hasPrefix(window) })
        }
    }

    @Test("an empty history is all unrecorded, with no segments or marks")
    func emptyHistory() throws {
        let svg = try SVGNode.parse(Self.chart([], until: 3600).svg)
        #expect(svg.descendants { $0.attributes["class"] == "state" }.isEmpty)
        #expect(svg.marks.isEmpty)
        let unrecorded = try #require(svg.descendants { $0.attributes["class"] == "unrecorded" }.first)
        #expect(unrecorded.number("width") > 500)
        #expect(svg.descendants { $0.attributes["class"] == "legend" }.count == 1)
    }

    @Test("ticks are UTC HH:mm on round times; the date shows under each day's first tick when the span crosses days")
    func ticks() throws {
        let overnight = Self.record(requestedAt: EngineFixture.date("2026-11-25T22:10:00Z"))
        let chart = ActivityChart(activity: overnight, history: [],
                                  until: EngineFixture.date("2026-11-26T02:00:00Z"))
        let axis = try #require(try SVGNode.parse(chart.svg).descendants { $0.attributes["class"] == "axis" }.first)
        let labels = axis.descendants { $0.name == "text" }.map(\.text)
        #expect(labels == ["22:30", "2026-11-25", "23:00", "23:30", "00:00", "2026-11-26", "00:30", "01:00", "01:30",
                           "02:00", "time (UTC)"])

        let sameDay = try SVGNode.parse(Self.chart([], until: 7200).svg)
        let dayLabels = sameDay.descendants { $0.attributes["class"] == "axis" }.first?.descendants { $0.name == "text" }
        #expect(dayLabels?.map(\.text) == ["10:00", "10:15", "10:30", "10:45", "11:00", "11:15", "11:30", "11:45",
                                           "12:00", "time (UTC)"])
    }
}

/// An XML element parsed by Foundation's `XMLParser`, which fails on malformed XML, so that tests can find elements
/// by name and attributes as a browser would.
struct SVGNode {
    var name: String
    var attributes: [String: String] = [:]
    var text = ""
    var children: [SVGNode] = []

    static func parse(_ svg: String) throws -> SVGNode {
        let builder = Builder()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = builder
        guard parser.parse() else {
            throw parser.parserError ?? CocoaError(.fileReadCorruptFile)
        }
        return try #require(builder.stack.first?.children.first)
    }

    /// Every element below this one, depth first, that satisfies `predicate`.
    func descendants(where predicate: (SVGNode) -> Bool) -> [SVGNode] {
        children.flatMap { child in (predicate(child) ? [child] : []) + child.descendants(where: predicate) }
    }

    /// The `<title>` child's text: the tooltip.
    var title: String? { children.first { $0.name == "title" }?.text }

    /// The text of every `<text>` element.
    var texts: [String] { descendants { $0.name == "text" }.map(\.text) }

    /// The chart's marks, in document order.
    var marks: [SVGNode] { descendants { $0.name == "g" && $0.attributes["class"] == "mark" } }

    /// An attribute read as a number (NaN when missing, so that a comparison with it fails).
    func number(_ attribute: String) -> Double { attributes[attribute].flatMap(Double.init) ?? .nan }

    private final class Builder: NSObject, XMLParserDelegate {
        var stack = [SVGNode(name: "#document")]

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            stack.append(SVGNode(name: name, attributes: attributes))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack[stack.count - 1].text += string
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let finished = stack.removeLast()
            stack[stack.count - 1].children.append(finished)
        }
    }
}
