import Testing
@testable import DeepLinks

@Suite("Reverse routing")
struct ReverseRoutingTests {
    static let text = """
    route task
        pattern  myapp://task/(?<id>[^/]+)
        target   Task
        example  myapp://task/1

    route comment
        pattern  myapp://task/(?<id>[^/]+)/comments/(?<comment>[^/]+)/?
        target   Comment
        example  myapp://task/1/comments/2

    route numeric
        pattern  https://example\\.com/orders?/(?<order>[0-9]+)
        target   Order
        example  https://example.com/order/12

    route search
        pattern  myapp://search
        target   Search
        query    q required
        query    tag repeated
        example  myapp://search?q=x

    route regexy
        pattern  myapp://r/(a|b)
        target   R
        example  myapp://r/a
    """

    let table: RouteTable
    init() throws { table = try RouteTable.parse(Self.text) }

    /// Values that need encoding, generated deterministically: every awkward character alone,
    /// then pseudo-random mixes of them.
    static let values: [String] = {
        let alphabet: [String] = ["/", "%", " ", "?", "#", "+", "&", "=", "é", "✓", "😀", "a", "Z", "0", "-", ".", "~", ":", "@", ";", "%2F", "\"", "<"]
        var values = alphabet.map { "x\($0)y" } + alphabet
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<150 {
            var value = ""
            for _ in 0..<Int(state % 7 + 1) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                value += alphabet[Int(state >> 33) % alphabet.count]
            }
            values.append(value)
        }
        return values
    }()

    @Test("path parameters round-trip", arguments: values)
    func pathRoundTrip(value: String) throws {
        let url = try table.url(for: "task", parameters: ["id": value])
        let result = try #require(table.firstMatch(url))
        #expect(result.routeName == "task")
        #expect(result.parameters == ["id": value])
        let comment = try table.url(for: "comment", parameters: ["id": value, "comment": value + "!"])
        #expect(table.firstMatch(comment)?.parameters == ["id": value, "comment": value + "!"])
    }

    @Test("query parameters round-trip, repeated keys and empty values included", arguments: values)
    func queryRoundTrip(value: String) throws {
        let query = [QueryItem(name: "q", value: value), QueryItem(name: "tag", value: value), QueryItem(name: "tag", value: "")]
        let url = try table.url(for: "search", query: query)
        let result = try #require(table.firstMatch(url))
        #expect(result.routeName == "search")
        #expect(result.queryItems == query)
    }

    @Test("encoding is exact")
    func encoding() throws {
        #expect(try table.url(for: "task", parameters: ["id": "a/b c?d#e%f"]) == "myapp://task/a%2Fb%20c%3Fd%23e%25f")
        #expect(try table.url(for: "task", parameters: ["id": "café"]) == "myapp://task/caf%C3%A9")
        #expect(try table.url(for: "numeric", parameters: ["order": "12"]) == "https://example.com/order/12")
        #expect(try table.url(for: "search", query: [.init(name: "q", value: "a+b c&d=e")]) == "myapp://search?q=a%2Bb%20c%26d%3De")
    }

    @Test("values the route would refuse, and other mistakes, are errors")
    func errors() {
        #expect(throws: URLBuildError.unknownRoute("nope")) { try table.url(for: "nope") }
        #expect(throws: URLBuildError.missingParameter("id")) { try table.url(for: "task") }
        #expect(throws: URLBuildError.unknownParameter("idd")) { try table.url(for: "task", parameters: ["id": "1", "idd": "2"]) }
        #expect(throws: URLBuildError.notReversible(route: "regexy")) { try table.url(for: "regexy") }
        // A value the group does not take is named, with the group's pattern.
        #expect(throws: URLBuildError.valueRefused(parameter: "order", value: "12a", pattern: "[0-9]+")) {
            try table.url(for: "numeric", parameters: ["order": "12a"])
        }
        #expect(throws: URLBuildError.valueRefused(parameter: "id", value: "", pattern: "[^/]+")) {
            try table.url(for: "task", parameters: ["id": ""])
        }
        #expect(throws: URLBuildError.valueRefused(parameter: "comment", value: "", pattern: "[^/]+")) {
            try table.url(for: "comment", parameters: ["id": "a/b%", "comment": ""])
        }
        // A required query item missing: every value is fine, the URL still does not route back.
        #expect(throws: URLBuildError.doesNotRouteBack(url: "myapp://search", reason: "no route matches (1 candidate tried)")) {
            try table.url(for: "search")
        }
    }

    @Test("a URL an earlier route takes does not route back, and says where it goes")
    func shadowedBuild() throws {
        let table = try RouteTable.parse("""
            route digits
                pattern  myapp://x/(?<id>[0-9]+)
                target   Digits
                example  myapp://x/1
            route words
                pattern  myapp://x/(?<id>[0-9a-z]+)
                target   Words
                example  myapp://x/a
            """)
        #expect(try table.url(for: "words", parameters: ["id": "a1"]) == "myapp://x/a1")
        #expect(throws: URLBuildError.doesNotRouteBack(url: "myapp://x/12", reason: "it reaches route `digits`")) {
            try table.url(for: "words", parameters: ["id": "12"])
        }
        #expect(throws: URLBuildError.valueRefused(parameter: "id", value: "A", pattern: "[0-9a-z]+")) {
            try table.url(for: "words", parameters: ["id": "A"])
        }
    }

    @Test("a query value its rule does not take is named, with the rule's pattern, whether or not another route takes the URL")
    func refusedQueryValue() throws {
        let table = try RouteTable.parse("""
            route task
                pattern  myapp://task/(?<id>[0-9]+)
                target   Task
                query    source optional (homescreen|lockscreen|stack)
                query    page optional [0-9]+
                query    tag repeated [a-z]+
                example  myapp://task/1?source=stack
            route task.any
                pattern  myapp://task/(?<rest>.+)
                target   Anything
                example  myapp://task/x
            route strict
                pattern  myapp://strict/(?<id>[0-9]+)
                target   Strict
                query    page required [0-9]+
                example  myapp://strict/1?page=2
            """)
        let taken = [QueryItem(name: "source", value: "stack"), QueryItem(name: "page", value: "2"), QueryItem(name: "tag", value: "a"),
                     QueryItem(name: "tag", value: "b")]
        #expect(try table.url(for: "task", parameters: ["id": "1"], query: taken) == "myapp://task/1?source=stack&page=2&tag=a&tag=b")
        // A choice of words (compared as bytes when matching); task.any takes the URL the rule refuses.
        #expect(throws: URLBuildError.queryValueRefused(name: "source", value: "fridge", pattern: "(homescreen|lockscreen|stack)")) {
            try table.url(for: "task", parameters: ["id": "1"], query: [.init(name: "source", value: "fridge")])
        }
        // A pattern that runs, on a value that needs encoding; no other route takes the URL.
        #expect(throws: URLBuildError.queryValueRefused(name: "page", value: "2 3", pattern: "[0-9]+")) {
            try table.url(for: "strict", parameters: ["id": "1"], query: [.init(name: "page", value: "2 3")])
        }
        // A repeated item: the value the rule refuses, not the first.
        #expect(throws: URLBuildError.queryValueRefused(name: "tag", value: "B", pattern: "[a-z]+")) {
            try table.url(for: "task", parameters: ["id": "1"], query: [.init(name: "tag", value: "a"), .init(name: "tag", value: "B")])
        }
        // A path value refused is named before a query value.
        #expect(throws: URLBuildError.valueRefused(parameter: "id", value: "x", pattern: "[0-9]+")) {
            try table.url(for: "task", parameters: ["id": "x"], query: [.init(name: "source", value: "fridge")])
        }
        // A required item missing is no value refused: the URL still does not route back.
        #expect(throws: URLBuildError.doesNotRouteBack(url: "myapp://strict/1", reason: "no route matches (1 candidate tried)")) {
            try table.url(for: "strict", parameters: ["id": "1"])
        }
        let error = URLBuildError.queryValueRefused(name: "source", value: "fridge", pattern: "(homescreen|lockscreen|stack)")
        #expect(error.description == #"query parameter `source`: the route's query rule `(homescreen|lockscreen|stack)` does not take the value "fridge""#)
    }
}
