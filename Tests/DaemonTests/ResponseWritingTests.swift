import DeepLinks
import Foundation
import HTTPServer
import JSON
import Testing
import WidgetHost
@testable import WidgetHostServer

extension DaemonTests {
    /// The hot endpoints write their JSON by hand (`JSONWritable`) and read route requests straight from the parsed
    /// tree; these tests hold both to what `JSONEncoder` and `StrictJSONDecoder` do with the same values.
    @Suite("Hand-written responses agree with JSONEncoder")
    struct ResponseWritingTests {
        static func expectSameBytes<T: JSONWritable>(_ value: T, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
            expectSameBytes(HTTPResponse.json(writing: value), HTTPResponse.json(value), sourceLocation: sourceLocation)
        }

        static func expectSameBytes(_ written: HTTPResponse, _ encoded: HTTPResponse,
                                    sourceLocation: Testing.SourceLocation = #_sourceLocation) {
            #expect(written.status == encoded.status, sourceLocation: sourceLocation)
            #expect(String(decoding: written.body, as: UTF8.self) == String(decoding: encoded.body, as: UTF8.self),
                    sourceLocation: sourceLocation)
            #expect(written.headers == encoded.headers, sourceLocation: sourceLocation)
        }

        static let awkwardContent: JSONValue = .object([
            "zeta": .string("last"), "Alpha": .int(-42), "alpha": .double(0.1), "é": .string("accent"),
            "ü": .array([.null, .bool(true), .bool(false), .double(1e-7), .double(1.5e300), .double(-0.0)]),
            "quote\"key": .string("line\nbreak\ttab \u{01} \u{7F} / slash \\ back \u{1F600}"),
            "nested": .object(["b": .int(Int.max), "a": .int(Int.min), "": .string("")]),
            "10": .double(100), "9": .double(2.5),
        ])

        static let dates: [Date] = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_795_960_800),
            Date(timeIntervalSince1970: 1_795_960_800.999), Date(timeIntervalSince1970: 1_795_960_800.9999999),
            Date(timeIntervalSince1970: -0.5), Date(timeIntervalSince1970: -62_135_596_801.5),
            Date(timeIntervalSince1970: 253_402_300_799), Date(timeIntervalSince1970: 253_402_300_800),
            Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: -0.000_000_1),
        ]

        /// The entry endpoint's body, from a memo shared across calls, against JSONEncoder's.
        static func expectSameEntryBody(_ snapshot: EntrySnapshot, at: Date, in responses: EntryResponses,
                                        timelineID: UInt64, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
            for _ in 0..<2 { // once written, once from the memo
                let shown = ShownEntry(entry: snapshot, at: at, index: 0, timelineID: timelineID)
                expectSameBytes(responses.response(for: shown),
                                HTTPResponse.json(V1.EntryAt(at: at, entry: V1.Entry(snapshot))),
                                sourceLocation: sourceLocation)
            }
        }

        @Test("entries at T: content, relevance and dates", arguments: ResponseWritingTests.dates)
        func entryAt(date: Date) {
            let responses = EntryResponses()
            var timelineID: UInt64 = 0
            for (score, duration) in [(Float?.none, Double?.none), (0.8, 0), (1, 3600.5), (Float.leastNonzeroMagnitude, 1e-3)] {
                let snapshot = EntrySnapshot(date: date, relevanceScore: score, relevanceDuration: duration,
                                             content: Self.awkwardContent)
                timelineID += 1
                Self.expectSameEntryBody(snapshot, at: date.addingTimeInterval(0.25), in: responses,
                                         timelineID: timelineID)
            }
        }

        /// From 1600 on: before 1582 Foundation's formatter writes Julian calendar dates, the writer the proleptic
        /// Gregorian ones ISO 8601 and the API's reader use (`DateTimeWritingTests` covers those).
        @Test("ISO 8601 dates over a wide range of instants")
        func manyDates() {
            let responses = EntryResponses()
            var timelineID: UInt64 = 0
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<2000 {
                let seconds = Double.random(in: -11_676_096_000...260_000_000_000, using: &generator)
                let whole = seconds.rounded(.down)
                for instant in [seconds, whole, whole - 0.000_000_1] {
                    let date = Date(timeIntervalSince1970: instant)
                    timelineID += 1
                    Self.expectSameEntryBody(EntrySnapshot(date: date, content: .null), at: date, in: responses,
                                             timelineID: timelineID)
                }
            }
        }

        @Test("a non-finite number is a 500, as with JSONEncoder")
        func nonFinite() {
            let snapshot = EntrySnapshot(date: Date(timeIntervalSince1970: 0), content: .double(.infinity))
            let written = EntryResponses().response(for: ShownEntry(entry: snapshot, at: Date(), index: 0, timelineID: 1))
            #expect(written.status == .internalServerError)
            #expect(HTTPResponse.json(V1.EntryAt(at: Date(), entry: V1.Entry(snapshot))).status == .internalServerError)
        }

        @Test("route matches, with and without parameters and query, and misses")
        func matches() throws {
            let table = try DeepLinks.RouteTable.load(directory: InProcessDaemon.routesDirectory.path)
            let urls = [
                "myapp://task/task-3?source=homescreen", "MYAPP://Task/task-7/?b=2&a=1&a=%22x%22",
                "https://MyApp.Example.com:443/task/task-42?source=lockscreen#ignored",
                "myapp://widget/?source=stack&kind=ProjectProgress", "myapp://daily?image=sea+and+sky.png",
                "myapp://delivery/ORD-2024-0001/courier", "myapp://inbox",
            ]
            var matched = 0
            for url in urls {
                if case .success(let match) = table.match(url) {
                    matched += 1
                    Self.expectSameBytes(V1.Match(match))
                    Self.expectSameLentBytes(table, url)
                }
            }
            #expect(matched >= 5)
            Self.expectSameBytes(V1.Match(noMatch: "no route matches \"myapp://x\""))
            var many = V1.Match(noMatch: "")
            (many.matched, many.reason, many.route, many.target) = (true, nil, "r", "T/\u{2028}")
            many.parameters = ["z": "1", "a": "é", "B": "\"", "ä": "\n"]
            many.query = [V1.QueryPair(name: "q", value: ""), V1.QueryPair(name: "", value: "💡")]
            many.canonicalUrl = "myapp://r/1?q="
            Self.expectSameBytes(many)
        }

        /// The match endpoint's answer written from the lent match against `JSONEncoder`'s for the owned one.
        static func expectSameLentBytes(_ table: DeepLinks.RouteTable, _ url: String,
                                        sourceLocation: Testing.SourceLocation = #_sourceLocation) {
            guard case .success(let match) = table.match(url) else {
                Issue.record("\(url) matches no route", sourceLocation: sourceLocation)
                return
            }
            var writer = JSONTextWriter()
            let lent = table.withMatch(url) { V1.Match.write($0, to: &writer) }
            #expect((try? lent.get()) != nil, sourceLocation: sourceLocation)
            expectSameBytes(HTTPResponse.json(written: writer), HTTPResponse.json(V1.Match(match)),
                            sourceLocation: sourceLocation)
        }

        @Test("a lent match's answer: parameters sorted, a shared name's first group, escapes, no parameters")
        func lentMatches() throws {
            let table = try DeepLinks.RouteTable.parse("""
            route either
                pattern  (?J)myapp://either/(?:n/(?<id>[0-9]+)|w/(?<id>[a-z]+))(?:/(?<tail>.+))?
                target   Either
                example  myapp://either/n/7
            route many
                pattern  myapp://many/(?<zeta>[^/]+)/(?<Alpha>[^/]+)/(?<alpha>[^/]+)/(?<b2>[^/]+)
                target   Many/"quoted"
                example  myapp://many/a/b/c/d
            route both
                pattern  (?J)myapp://both/(?<id>[a-z]+)-(?<id>[0-9]+)/(?<a>[0-9]+)
                target   Both
                example  myapp://both/x-1/2
            route bare
                pattern  myapp://bare
                target   Bare
                example  myapp://bare
            """)
            for url in ["myapp://either/n/42", "myapp://either/w/abc/x%2Fy", "myapp://either/w/abc", "myapp://both/abc-12/3",
                        "myapp://many/%22/%C3%A9/%5C/%E2%80%A8?b=%26&a=1&a=&%F0%9F%92%A1=x",
                        "MYAPP://many/1/2/3/4/#fragment", "myapp://bare", "myapp://bare?x=%00&y"] {
                Self.expectSameLentBytes(table, url)
            }
        }

        static let goodBodies = [
            #"{"url":"myapp://task/1"}"#, #" { "url" : "myapp://task/1" , "source":"link" } "#,
            #"{"family":"systemSmall","url":"u","source":"widgetURL"}"#, #"{"url":"\u00e9\n"}"#,
            #"{"url":""}"#, #"{"url":"myapp://task/task-3?source=homescreen"}"#, #"{"url":"é/\/"} "#,
            #"{"url":"myapp://café/☕️?q=💡"}"#,
        ]
        static let badBodies = [
            "", "null", "[]", #"{}"#, #"{"url":1}"#, #"{"url":null}"#, #"{"url":"u","source":null}"#,
            #"{"url":"u","source":2}"#, #"{"url":"u","extra":"x"}"#, #"{"url":"u","url":"v"}"#, #"{"url":"u",}"#,
            #"{"url":"u"} x"#, #"{"family":["a"],"url":"u"}"#, "{\"url\":\"a\tb\"}", #"{"url":"a"b"}"#,
            #"{"url":"\"}"#, "{\"url\":\"\u{7F}\"}", #"{"url":"u"}}"#,
        ]

        @Test("route requests read as StrictJSONDecoder reads them, errors included",
              arguments: ResponseWritingTests.goodBodies + ResponseWritingTests.badBodies)
        func routeRequests(body: String) {
            Self.expectSameRouteRequest(Data(body.utf8))
        }

        @Test("route request bodies that are not UTF-8, or are UTF-8 beyond ASCII, read as the decoder reads them")
        func routeRequestBytes() {
            for url: [UInt8] in [[0xFF], [0xC3], [0x63, 0xC3, 0xA9], [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x92, 0xA1],
                                 [0xC0, 0xAF], [0x7F], [0x61, 0x00]] {
                Self.expectSameRouteRequest(Data(#"{"url":""#.utf8) + Data(url) + Data(#""}"#.utf8))
            }
        }

        static func expectSameRouteRequest(_ data: Data, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
            let body = String(decoding: data, as: UTF8.self)
            let fast = Result { try V1.RouteRequest(body: data) }
            let strict = Result { try APIError.decodingBody(as: V1.RouteRequest.self) {
                try StrictJSONDecoder().decode(V1.RouteRequest.self, from: data)
            } }
            switch (fast, strict) {
            case (.success(let fast), .success(let strict)):
                #expect(fast.url == strict.url && fast.source == strict.source && fast.family == strict.family,
                        sourceLocation: sourceLocation)
            case (.failure(let fast), .failure(let strict)):
                #expect(fast as? APIError == strict as? APIError, sourceLocation: sourceLocation)
                #expect(fast is APIError, sourceLocation: sourceLocation)
            default:
                Issue.record("\(body): \(fast) but the decoder gives \(strict)", sourceLocation: sourceLocation)
            }
        }
    }
}
