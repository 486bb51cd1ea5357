import DeepLinks
import Foundation
import TapCharts
import Testing
import WidgetHost
#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("Tap reports: broken links with nearest routes, CSV, JSON and SVG")
struct TapReportTests {
    static let now = EngineFixture.date("2026-11-25T10:00:00Z")

    static func tap(_ url: String, family: String = "systemMedium", source: TapSource = .widgetURL,
                    at offset: TimeInterval = 0) -> Tap {
        Tap(url: url, kind: "TaskList", family: family, source: source, date: now.addingTimeInterval(offset))
    }

    @Test("top unmatched URLs, most tapped first, each with the route that got furthest")
    func unmatchedWithNearestRoutes() throws {
        let (_, taps) = try TapIngestionTests.store()
        try taps.record(batch: Array(repeating: Self.tap("myapp://taks/task-1"), count: 3)
            + Array(repeating: Self.tap("myapp://widget?kind=TaskList"), count: 2)
            + [Self.tap("myapp://widget?kind=TaskList&source=homescreen", source: .link),
               Self.tap("myapp://task/task-1"), Self.tap("::not a url::")])
        let unmatched = try taps.unmatchedURLs()
        #expect(unmatched.map(\.url) == ["myapp://taks/task-1", "myapp://widget?kind=TaskList", "::not a url::",
                                         "myapp://widget?kind=TaskList&source=homescreen"])
        #expect(unmatched.map(\.taps) == [3, 2, 1, 1])
        let typo = try #require(unmatched[0].nearest)
        #expect(typo.routeName == "task.detail" && typo.reason == .sharedPrefix(10))
        let missingQuery = try #require(unmatched[1].nearest)
        #expect(missingQuery.routeName == "widget.open")
        guard case .queryRejected(let why) = missingQuery.reason else {
            Issue.record("expected a query rejection, got \(missingQuery.reason)")
            return
        }
        #expect(why.contains("source"))
        #expect(unmatched[2].nearest == nil, "no canonical form, no nearest route")
        #expect(unmatched[3].nearest?.routeName == "widget.open")
        #expect(unmatched[3].nearest?.reason == .constraintsExcluded)
        #expect(try taps.unmatchedURLs(limit: 1).count == 1)
        #expect(try taps.unmatchedURLs(from: Self.now.addingTimeInterval(1)).isEmpty)
        #expect(NearestRoute.literalPrefix(of: "https://myapp\\.example\\.com/task/(?<id>x)") == "https://myapp.example.com/task/")
        #expect(NearestRoute.literalPrefix(of: "myapp://tasks?/x") == "myapp://task")
    }

    @Test("CSV follows RFC 4180: quoted commas, doubled quotes, line breaks kept, CRLF line ends")
    func csvQuoting() {
        #expect(CSV.field("plain") == "plain")
        #expect(CSV.field("a,b") == "\"a,b\"")
        #expect(CSV.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSV.field("two\nlines") == "\"two\nlines\"")
        #expect(CSV.field("cr\r\nlf") == "\"cr\r\nlf\"")
        let report = TapReport(query: TapReportQuery(dimensions: [.route, .kind]), rows: [
            TapReport.Row(route: "task,detail", kind: "K\"1\"", taps: 3, suspicious: 1),
            TapReport.Row(route: "plain", kind: "multi\nline", taps: 2, suspicious: 0),
        ])
        #expect(report.csv() == "route,kind,taps,suspicious\r\n\"task,detail\",\"K\"\"1\"\"\",3,1\r\n"
            + "plain,\"multi\nline\",2,0\r\n")
    }

    @Test("the per-route chart is well-formed XML with one series per route; the heat map too")
    func svgCharts() throws {
        let (_, taps) = try TapIngestionTests.store()
        var batch: [Tap] = []
        for day in 0..<10 {
            for index in 0..<(day % 4 + 1) {
                batch.append(Self.tap("myapp://task/task-\(index)", at: Double(day * 86400 + index * 3600)))
                batch.append(Self.tap("myapp://project/p<&>\(index)", at: Double(day * 86400)))
            }
            if day.isMultiple(of: 3) { batch.append(Self.tap("myapp://daily?image=a.jpg", at: Double(day * 86400))) }
        }
        try taps.record(batch: batch)
        let report = try taps.report(TapReportQuery(dimensions: [.route], bucket: .day))
        let svg = TapChart.timeSeries(report)
        let series = try SVGProbe.parse(svg)
        #expect(series.routes.sorted() == ["(unmatched)", "daily.image", "task.detail"].sorted())
        #expect(series.groupCount == 3)
        #expect(series.texts.contains { $0.hasPrefix("Taps per route per day") })
        #expect(series.texts.contains("route (taps)"))

        let hourly = try taps.report(TapReportQuery(dimensions: [], bucket: .hour, timeZone: EngineFixture.tokyo))
        let heat = try SVGProbe.parse(TapChart.heatMap(hourly))
        #expect(heat.cellTaps.count == 7 * 24)
        #expect(heat.cellTaps.reduce(0, +) == batch.count)
    }
}

/// Parses an SVG with Foundation's XMLParser (failing on malformed XML) and collects what the tests check.
final class SVGProbe: NSObject, XMLParserDelegate {
    var routes: [String] = []
    var groupCount = 0
    var texts: [String] = []
    var cellTaps: [Int] = []
    private var inText = false

    static func parse(_ svg: String) throws -> SVGProbe {
        let probe = SVGProbe()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = probe
        guard parser.parse() else {
            throw parser.parserError ?? CocoaError(.fileReadCorruptFile)
        }
        return probe
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if name == "g", attributes["class"] == "series" {
            groupCount += 1
            if let route = attributes["data-route"] { routes.append(route) }
        }
        if name == "rect", attributes["class"] == "cell", let taps = attributes["data-taps"].flatMap(Int.init) {
            cellTaps.append(taps)
        }
        inText = name == "text"
        if inText { texts.append("") }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inText { texts[texts.count - 1] += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        inText = false
    }
}
