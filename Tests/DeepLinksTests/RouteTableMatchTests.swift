import Testing
@testable import DeepLinks

@Suite("Matching: priority, dispatch, parameters, query rules")
struct RouteTableMatchTests {
    static let text = """
    route task.new
        pattern  myapp://task/new
        target   NewTask
        example  myapp://task/new

    route task.detail
        pattern  myapp://task/(?<id>[^/]+)
        target   TaskDetail
        example  myapp://task/42

    route task.comment
        pattern  myapp://task/(?<id>[^/]+)/comments/(?<comment>[0-9]+)
        target   Comment
        example  myapp://task/42/comments/7

    route files
        pattern  myapp://files/(?<path>.+)
        target   File
        example  myapp://files/a/b

    route search
        pattern  myapp://search
        target   Search
        query    q required .+
        query    tag repeated [a-z]+
        query    page optional [0-9]+
        example  myapp://search?q=x

    route search.fallback
        pattern  myapp://search
        target   SearchHome
        example  myapp://search

    route universal
        pattern  https://example\\.com/(?<screen>task|project)/(?<id>[0-9]+)
        target   Universal
        example  https://example.com/task/1

    route anyhost
        pattern  https://[a-z.]+/help
        target   Help
        example  https://help.example.org/help

    route linkonly
        pattern  myapp://chat/(?<id>[0-9]+)
        target   Chat
        sources  link
        example  myapp://chat/1

    route chat.fallback
        pattern  myapp://chat/(?<id>[0-9]+)
        target   ChatViaWidget
        example  myapp://chat/2

    route urgent
        pattern  myapp://task/urgent
        target   Urgent
        priority 5
        example  myapp://task/urgent
    """

    let table: RouteTable

    init() throws { table = try RouteTable.parse(Self.text) }

    static let cases: [(String, String?, [String: String])] = [
        ("myapp://task/new", "task.new", [:]),
        ("myapp://task/42", "task.detail", ["id": "42"]),
        ("myapp://task/urgent", "urgent", [:]),                      // priority beats file order
        ("myapp://task/a%2Fb", "task.detail", ["id": "a/b"]),        // %2F stays in the parameter
        ("myapp://task/a%2Fb/comments/3", "task.comment", ["id": "a/b", "comment": "3"]),
        ("myapp://task/100%25", "task.detail", ["id": "100%"]),
        ("myapp://task/caf%C3%A9", "task.detail", ["id": "café"]),
        ("myapp://task/42/", "task.detail", ["id": "42"]),
        ("myapp://task/42/comments/x", nil, [:]),
        ("myapp://files/a/b%2Fc/d", "files", ["path": "a/b/c/d"]),       // parameters are always fully decoded
        ("myapp://search?q=hello+world&tag=a&tag=b", "search", [:]),
        ("myapp://search?q=x&page=2&page=3", "search.fallback", [:]),   // page may appear once
        ("myapp://search?q=x&tag=A", "search.fallback", [:]),           // tag must be lower-case
        ("myapp://search", "search.fallback", [:]),                     // q is required
        ("https://example.com/project/9", "universal", ["screen": "project", "id": "9"]),
        ("HTTPS://EXAMPLE.COM/task/9", "universal", ["screen": "task", "id": "9"]),
        ("https://other.net/help", "anyhost", [:]),
        ("https://example.com/help", "anyhost", [:]),
        ("https://example.com/other/1", nil, [:]),
        ("other://task/1", nil, [:]),
        ("myapp://chat/5", "linkonly", ["id": "5"]),
    ]

    @Test("routes and parameters", arguments: cases)
    func routes(url: String, expected: String?, parameters: [String: String]) {
        let result = table.firstMatch(url)
        #expect(result?.routeName == expected)
        if expected != nil { #expect(result?.parameters == parameters) }
        // Explain agrees with match.
        #expect(table.explain(url).winner == expected)
    }

    @Test("query items are all returned, decoded, in order")
    func queryItems() throws {
        let result = try #require(table.firstMatch("myapp://search?q=hello+world&tag=a&tag=b&utm=x#frag"))
        #expect(result.queryValues("tag") == ["a", "b"])
        #expect(result.queryValue("q") == "hello world")
        #expect(result.queryItems.map(\.name) == ["q", "tag", "tag", "utm"])
        #expect(result.canonicalURL.string == "myapp://search?q=hello%20world&tag=a&tag=b&utm=x")
        #expect(result.target == "Search")
    }

    @Test("sources constrain matching when the tap's source is known")
    func tapSources() {
        #expect(table.firstMatch("myapp://chat/5", context: TapContext(source: .link))?.routeName == "linkonly")
        #expect(table.firstMatch("myapp://chat/5", context: TapContext(source: .widgetURL))?.routeName == "chat.fallback")
    }

    @Test("invalid URLs fail with the canonicalization reason")
    func invalidURL() {
        #expect(throws: RoutingFailure.invalidURL(.invalidPercentEncoding(offset: 13))) { try table.match("myapp://task/%zz").get() }
        #expect(throws: RoutingFailure.noRoute(candidates: 0)) { try table.match("nothing://here").get() }
    }

    @Test("dispatch considers only routes that share the URL's literal prefix")
    func dispatch() {
        let explanation = table.explain("myapp://task/42")
        #expect(explanation.dispatchedOn == "myapp://task/* with 3 `/`")
        // task.new and urgent are filed under their own first segment, so they are not even tried;
        // task.comment always has five `/`, so it is not tried on a subject with three.
        #expect(explanation.candidates.map(\.routeName) == ["task.detail"])
        #expect(explanation.skippedByDispatch == table.routes.count - 1)
        #expect(explanation.candidates.map(\.outcome) == [.won])
        let comment = table.explain("myapp://task/42/comments/7")
        #expect(comment.dispatchedOn == "myapp://task/* with 5 `/`")
        #expect(comment.candidates.map(\.routeName) == ["task.comment"])
    }

    @Test("explain names the shadowing route")
    func explainShadowed() {
        let explanation = table.explain("myapp://task/urgent")
        #expect(explanation.winner == "urgent")
        #expect(explanation.candidates.first { $0.routeName == "task.detail" }?.outcome == .shadowed(by: "urgent"))
        #expect(table.explain("myapp://search?q=x&page=2&page=3").candidates.first?.outcome
                == .queryRejected("query `page` may appear only once (found 2)"))
    }

    @Test("file order decides between equal priorities, across chunk boundaries")
    func chunkedOrder() throws {
        // 60 routes that all match the same URL: the first must win although it sits in the first
        // chunk; then with the first removed, the second.
        var builder = RouteTableBuilder()
        builder.maxRoutesPerChunk = 7
        builder.add((0..<60).map { index in
            RouteDefinition(name: "r\(index)", pattern: "myapp://x/(?<v\(index)>[a-z]+)" + (index % 2 == 0 ? "" : "/?"), target: "T\(index)",
                            examples: ["myapp://x/a"])
        })
        let table = try builder.build()
        #expect(table.firstMatch("myapp://x/abc")?.routeName == "r0")
        #expect(table.firstMatch("myapp://x/abc")?.parameters == ["v0": "abc"])
        var later = RouteTableBuilder()
        later.maxRoutesPerChunk = 7
        later.add((0..<60).map { index in
            RouteDefinition(name: "r\(index)", pattern: "myapp://x/(?<v>[a-z]{\(60 - index)})", target: "T", examples: ["myapp://x/a"])
        })
        let lengths = try later.build()
        // Only r59 ({1}) and r58 ({2}) can match one- and two-letter values; each sits in the last chunk.
        #expect(lengths.firstMatch("myapp://x/a")?.routeName == "r59")
        #expect(lengths.firstMatch("myapp://x/ab")?.routeName == "r58")
        #expect(lengths.firstMatch("myapp://x/" + String(repeating: "a", count: 31))?.routeName == "r29")
        #expect(lengths.firstMatch("myapp://x/" + String(repeating: "a", count: 31))?.parameters == ["v": String(repeating: "a", count: 31)])
    }

    @Test("the match limit is applied to every match")
    func matchLimit() throws {
        var builder = RouteTableBuilder()
        builder.probesBacktracking = false
        builder.matchLimit = 1_000
        builder.add([RouteDefinition(name: "slow", pattern: "myapp://x/(?<a>(?:a|aa)+)b", target: "T", examples: ["myapp://x/ab"])])
        let table = try builder.build()
        #expect(table.firstMatch("myapp://x/aab")?.routeName == "slow")
        #expect(throws: RoutingFailure.matchLimitExceeded(route: "slow")) {
            // The `b` at the end defeats PCRE2's "required character" shortcut, so it really backtracks.
            try table.match("myapp://x/" + String(repeating: "a", count: 60) + "!b").get()
        }
    }
}
