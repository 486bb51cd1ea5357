import Testing
@testable import DeepLinks

/// A route whose pattern is all literal text is decided by comparing the subject with that text
/// when it is the only candidate left (`MatchPlan.matchAlone`), without running the pattern.
@Suite("Routes of literal text are matched by comparing bytes")
struct LiteralRouteTests {
    @Test("which patterns are literal text", arguments: [
        ("myapp://settings", true, "myapp://settings"),
        ("https://example\\.com/help", true, "https://example.com/help"),
        ("^myapp://about$", true, "myapp://about"),
        ("myapp://caf\u{E9}", true, "myapp://caf\u{E9}"),
        ("myapp://a]b}c", true, "myapp://a]b}c"),
        ("myapp://settings/?", false, "myapp://settings"),
        ("myapp://(?<id>[0-9]+)", false, "myapp://"),
        ("myapp://a|myapp://b", false, ""),
        ("myapp://x+", false, "myapp://"),
        ("myapp://a.b", false, "myapp://a"),
        ("myapp://\\d", false, "myapp://"),
        ("(?i)myapp://settings", false, ""),
    ])
    func classification(pattern: String, isLiteral: Bool, prefix: String) {
        let start = RouteStart(pattern: pattern)
        #expect(start.isLiteral == isLiteral)
        #expect(start.prefix == Array(prefix.utf8))
    }

    static let table = """
    route settings
        pattern  myapp://settings
        target   Settings
        example  myapp://settings
    route privacy
        pattern  myapp://settings/privacy
        target   Privacy
        example  myapp://settings/privacy
    route about
        pattern  ^myapp://about$
        target   About
        example  myapp://about
    route help
        pattern  https://example\\.com/help
        target   Help
        example  https://example.com/help
    route faq
        pattern  https://example\\.com/help/faq
        target   FAQ
        example  https://example.com/help/faq
    route widget
        pattern  myapp://widget
        target   Widget
        query    kind  required  (small|large)
        example  myapp://widget?kind=small
    route link-only
        pattern  myapp://link/now
        target   Link
        sources  link
        example  myapp://link/now
    route settings-page
        pattern  myapp://settings/(?<page>[a-z]+)
        target   SettingsPage
        example  myapp://settings/general
    route any
        pattern  myapp://(?<rest>.*)
        target   Any
        priority -1
        example  myapp://other
    """

    @Test("literal routes answer as their patterns do, with query rules and constraints")
    func agreesWithPatterns() throws {
        let table = try RouteTable.parse(Self.table)
        let expected: [(String, String?)] = [
            ("myapp://settings", "settings"), ("MYAPP://SETTINGS", "settings"), ("myapp://settings/", "settings"),
            ("myapp://settingsx", "any"), ("myapp://setting", "any"), ("myapp://settings/privacy", "privacy"),
            ("myapp://settings/privacyx", "settings-page"), ("myapp://settings/privac", "settings-page"),
            ("myapp://about", "about"), ("myapp://about?x=1", "about"), ("https://example.com/help", "help"),
            ("https://EXAMPLE.com/help#top", "help"), ("https://example.com/hel", nil), ("https://example.com/helpp", nil),
            ("https://example.com/help/faq", "faq"), ("https://example.com/help/fax", nil), ("https://example.com/help/fa", nil),
            ("https://example.com/help/f%61q", "faq"), ("https://example.com/help/faq/", "faq"),
            ("myapp://widget?kind=small", "widget"), ("myapp://widget?kind=tiny", "any"), ("myapp://widget", "any"),
            ("myapp://link/now", "link-only"), ("myapp://link/n%6Fw", "link-only"), ("myapp://link/no", "any"),
        ]
        for (url, route) in expected {
            #expect(table.firstMatch(url)?.routeName == route, "\(url)")
            #expect(table.explain(url).winner == route, "explain: \(url)")
            let lent = table.withMatch(url) { $0.routeName }
            #expect((try? lent.get()) == route, "lent: \(url)")
        }
        #expect(table.firstMatch("myapp://link/now", context: TapContext(source: .widgetURL))?.routeName == "any")
        #expect(table.firstMatch("myapp://settings")?.pathParameters.isEmpty == true)
    }

    @Test("random URLs near the literal routes route as trying every route in order does (referenceMatch)")
    func randomURLs() throws {
        let table = try RouteTable.parse(Self.table)
        let roots = ["myapp://settings", "myapp://about", "https://example.com/help", "https://example.com/help/fa", "myapp://link/now",
                     "myapp://link/", "myapp://", "myapp://widget"]
        let pieces = ["/", "s", "q", "x", "privacy", "?kind=small", "?kind=tiny", "&kind=large", "%2F", "%73", "A", "#f"]
        var random = SeededRandom(seed: 7)
        for _ in 0..<2_000 {
            var url = roots[random.next(roots.count)]
            for _ in 0..<random.next(3) { url += pieces[random.next(pieces.count)] }
            #expect(RoutingAnswer(table.match(url)) == table.referenceMatch(url), "\(url)")
        }
    }
}
