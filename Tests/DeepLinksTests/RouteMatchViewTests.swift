import Testing
@testable import DeepLinks

/// `RouteTable.withMatch` lends a `RouteMatchView` instead of returning a `RouteMatch`: these check
/// that it answers exactly as the owned match does, for every kind of URL, also when the closure
/// routes other URLs before reading, and that failures and the closure's errors come back as they are.
@Suite("RouteMatchView: lent matches")
struct RouteMatchViewTests {
    let table: RouteTable

    init() throws {
        table = try RouteTable.parse(RouteTableMatchTests.text + """

        route many
            pattern  myapp://many/(?<a>[a-z]+)/(?<b>[a-z]+)(?:/(?<c>[a-z]+))?/(?<d>[a-z]+)/(?<e>[a-z]+)/(?<f>[a-z]+)/(?<g>[a-z]+)/(?<h>[a-z]+)/(?<i>[^/]+)
            target   Many
            example  myapp://many/a/b/c/d/e/f/g/h/i
        """ + RouteMatchTests.threeAndFourGroups)
    }

    /// Everything a match answers, in one comparable value.
    struct Reading: Equatable {
        var name: String
        var target: String
        var path: [PathParameter]
        var byName: [String: String]
        var each: [String?]
        var query: [QueryItem]
        var values: [[String]]
        var first: [String?]
        var canonical: String

        init(name: String, target: String, path: [PathParameter], byName: [String: String], each: [String?], query: [QueryItem],
             values: [[String]], first: [String?], canonical: String) {
            (self.name, self.target, self.path, self.byName, self.each) = (name, target, path, byName, each)
            (self.query, self.values, self.first, self.canonical) = (query, values, first, canonical)
        }

        static let queryNames = ["x", "y", "name", "q", "missing"]

        init(_ match: RouteMatch) {
            self.init(name: match.routeName, target: match.target, path: match.pathParameters, byName: match.parameters,
                      each: (match.route.parameterNames + ["nope"]).map { match.parameter($0) }, query: match.queryItems,
                      values: Self.queryNames.map { match.queryValues($0) }, first: Self.queryNames.map { match.queryValue($0) },
                      canonical: match.canonicalURL.string)
        }

        init(_ view: borrowing RouteMatchView) {
            self.init(name: view.routeName, target: view.target, path: view.pathParameters, byName: view.parameters,
                      each: (view.route.parameterNames + ["nope"]).map { view.parameter($0) }, query: view.queryItems,
                      values: Self.queryNames.map { view.queryValues($0) }, first: Self.queryNames.map { view.queryValue($0) },
                      canonical: view.canonicalURL.string)
        }
    }

    static let urls = RouteMatchTests.urls + [
        "myapp://many/a/b/c/d/e/f/g/h/i%2Fj", "myapp://many/a/b/d/e/f/g/h/i", "MYAPP://many/a/b/c/d/e/f/g/h/%C3%A9?x=1&x=2",
        "myapp://task/42?name=a+b&name=%E2%9C%93&y", "myapp://nowhere/1", "myapp://task/%zz", "not a url",
    ]

    @Test("a lent match reads as the owned one, and fails the same way", arguments: urls)
    func agreesWithOwned(url: String) throws {
        let owned = table.match(url)
        let lent = table.withMatch(url) { Reading($0) }
        switch (owned, lent) {
        case let (.success(match), .success(reading)):
            #expect(reading == Reading(match))
        case let (.failure(ownedFailure), .failure(lentFailure)):
            #expect(ownedFailure == lentFailure)
        default:
            Issue.record("owned \(owned) but lent \(lent)")
        }
    }

    @Test("owned() keeps an equal match after the closure", arguments: urls)
    func owned(url: String) throws {
        guard case let .success(match) = table.match(url) else { return }
        let kept = try table.withMatch(url) { $0.owned() }.get()
        #expect(kept == match)
        #expect(Reading(kept) == Reading(match))
    }

    @Test("routing other URLs inside the closure leaves the lent match intact")
    func nested() throws {
        // The outer URL needs canonicalizing (its subject is not its bytes); the inner ones use the
        // thread's match data and subject buffer again.
        let outer = "MYAPP://many/a/b/d/e/f/g/h/i/%C3%A9?x=1"
        let expected = Reading(try table.match(outer).get())
        let (inner, reading) = try table.withMatch(outer) { view in
            let inner = table.withMatch("Myapp://task/%41b?x=2") { _ in
                table.withMatch("myapp://many/q/r/s/t/u/v/w/x/y") { $0.parameter("i") }
            }
            return (inner, Reading(view))
        }.get()
        #expect(try inner.get().get() == "y")
        #expect(reading == expected)
    }

    struct Stop: Error, Equatable { let at: String }

    @Test("the closure's error is thrown as it is; a failure does not call the closure")
    func errors() throws {
        #expect(throws: Stop(at: "task.detail")) {
            _ = try table.withMatch("myapp://task/1") { (view) throws(Stop) -> Int in throw Stop(at: view.routeName) }
        }
        var called = false
        let failed = table.withMatch("myapp://nowhere/1") { _ in called = true }
        #expect(!called)
        guard case .failure(.noRoute) = failed else { Issue.record("expected no route, got \(failed)"); return }
    }

    @Test("a lent match's failure is the owned one's: the candidates tried, an invalid URL's reason, the match limit")
    func failures() throws {
        var builder = RouteTableBuilder()
        builder.probesBacktracking = false
        builder.matchLimit = 1_000
        builder.add((0..<60).map { index in
            RouteDefinition(name: "r\(index)", pattern: "myapp://x/(?<v>[a-z]{\(60 - index)})", target: "T", examples: ["myapp://x/a"])
        })
        builder.add([RouteDefinition(name: "slow", pattern: "myapp://y/(?<a>(?:a|aa)+)b", target: "T", examples: ["myapp://y/ab"])])
        let table = try builder.build()
        let cases: [(url: String, failure: RoutingFailure)] = [
            ("myapp://x/1", .noRoute(candidates: 60)),
            ("myapp://x/" + String(repeating: "a", count: 61), .noRoute(candidates: 60)),
            ("nothing://here", .noRoute(candidates: 0)),
            ("myapp://x/%zz", .invalidURL(.invalidPercentEncoding(offset: 10))),
            ("myapp://y/" + String(repeating: "a", count: 60) + "!b", .matchLimitExceeded(route: "slow")),
        ]
        for (url, failure) in cases {
            #expect(throws: failure) { try table.match(url).get() }
            var called = false
            let lent = table.withMatch(url) { _ in called = true }
            #expect(!called)
            guard case let .failure(lentFailure) = lent else { Issue.record("\(url) matched when lent"); continue }
            #expect(lentFailure == failure, "\(url)")
        }
    }

    @Test("groups past 65,535 bytes are found again, for routes of one, two and three groups (one left out or not)")
    func farGroups() throws {
        var builder = RouteTableBuilder()
        builder.canonicalizer = URLCanonicalizer(maxURLLength: 200_000, maxParameterLength: 150_000)
        builder.addFile(text: """
        route two
            pattern  myapp://two/[a-z]+/(?<id>[0-9]+)(?:/(?<tail>x))?
            target   Two
            example  myapp://two/a/1
        route one
            pattern  myapp://one/[a-z]*/?(?<id>[0-9]+)
            target   One
            example  myapp://one/a/1
        route three
            pattern  myapp://three/(?<head>[a-z])?[a-z]*/(?<id>[0-9]+)(?:/(?<tail>x))?
            target   Three
            example  myapp://three/a/1
        """, file: "far.routes")
        let table = try builder.build()
        let pad = String(repeating: "a", count: 70_000)
        let cases: [(String, String, String?)] = [
            ("myapp://two/\(pad)/42", "two", nil), ("myapp://two/\(pad)/42/x", "two", "x"), ("myapp://two/a/42/x", "two", "x"),
            ("myapp://one/\(pad)/42", "one", nil), ("myapp://one/42", "one", nil),
            ("myapp://three/\(pad)/42/x", "three", "x"), ("myapp://three/\(pad)/42", "three", nil), ("myapp://three/a/42/x", "three", "x"),
        ]
        for (url, route, tail) in cases {
            let match = try table.match(url).get()
            #expect(match.routeName == route)
            #expect(match.parameter("id") == "42", "\(url.prefix(20))")
            #expect(match.parameter("tail") == tail)
            #expect(try table.withMatch(url) { Reading($0) }.get() == Reading(match))
        }
    }
}
