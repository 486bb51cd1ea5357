import Testing
@testable import DeepLinks

/// `RouteMatch` decodes parameters and query items when read: these read them every way there is
/// and compare with what explain (which decodes eagerly) and `queryItems` say.
@Suite("RouteMatch: lazily read results")
struct RouteMatchTests {
    let table: RouteTable

    init() throws {
        table = try RouteTable.parse(RouteTableMatchTests.text + """

        route many
            pattern  myapp://many/(?<a>[a-z]+)/(?<b>[a-z]+)(?:/(?<c>[a-z]+))?/(?<d>[a-z]+)/(?<e>[a-z]+)/(?<f>[^/]+)
            target   Many
            example  myapp://many/a/b/c/d/e/f

        route spaced
            pattern  myapp://spaced
            target   Spaced
            query    q required [a-z ]+
            example  myapp://spaced?q=a+b
        """ + Self.threeAndFourGroups)
    }

    /// Routes of three and four groups: the most a match keeps spans for is four (`CaptureSpans`),
    /// packed differently from one or two.
    static let threeAndFourGroups = """

        route three
            pattern  myapp://three/(?<a>[a-z]+)/(?<b>[0-9]+)(?:/(?<c>[^/]+))?
            target   Three
            example  myapp://three/a/1/c

        route four
            pattern  myapp://four/(?<a>[a-z]+)/(?<b>[a-z]+)/(?<c>[a-z]*)/(?<d>[^/]+)
            target   Four
            example  myapp://four/a/b/c/d
        """

    static let urls = RouteTableMatchTests.cases.map(\.0) + [
        "MYAPP://TASK/Caf%C3%A9/", "myapp://task/%41%2f%25?x=1#f", "myapp://many/a/b/c/d/e/f%2Fg", "myapp://many/a/b/d/e/f/g",
        "Myapp://many/a/b/c/d/e/%C3%A9", "myapp://spaced?q=a+b", "myapp://spaced?q=a%20b", "myapp://spaced?q=a%2Bb",
        "myapp://spaced?%71=ab", "myapp://files/a%2F/b/", "https://EXAMPLE.com:443/task/7?y=2", "myapp://spaced?q=ab#q=x",
        "myapp://task/7?x=1#frag?y=2", "myapp://three/abc/12", "myapp://three/abc/12/x%2Fy", "myapp://three/abc/12/c?x=1",
        "myapp://four/a/bb//d%2Fe", "MYAPP://four/a/bb/ccc/%C3%A9", "myapp://four/a/bb/ccc/ddd?x=1#f",
    ]

    @Test("the canonical URL of a match is the one canonicalizing the URL gives", arguments: urls)
    func canonicalURL(url: String) throws {
        guard let match = table.firstMatch(url) else { return }
        let canonical = try table.canonicalizer.canonicalize(url)
        #expect(match.canonicalURL == canonical)
        #expect(match.canonicalURL.subject == canonical.subject)
        #expect(match.canonicalURL.string == canonical.string)
    }

    @Test("every way of reading parameters agrees with explain", arguments: urls)
    func parameters(url: String) throws {
        let explanation = table.explain(url)
        guard let match = table.firstMatch(url) else {
            #expect(explanation.winner == nil)
            return
        }
        let won = try #require(explanation.candidates.first { $0.outcome == .won })
        #expect(match.routeName == won.routeName)
        #expect(match.parameters == won.parameters)
        #expect(match.pathParameters.map(\.name) == match.route.parameterNames.filter { won.parameters[$0] != nil })
        for name in match.route.parameterNames { #expect(match.parameter(name) == won.parameters[name]) }
        #expect(match.parameter("no-such-group") == nil)
        // The same through an already canonical URL.
        let canonical = try table.canonicalizer.canonicalize(url)
        let again = try table.match(canonical).get()
        #expect(again == match)
        #expect(again.parameters == match.parameters)
    }

    @Test("three and four groups, one of them unset or empty, owned and lent")
    func threeAndFour() throws {
        let cases: [(String, [String: String])] = [
            ("myapp://three/abc/12", ["a": "abc", "b": "12"]), ("myapp://three/abc/12/x%2Fy", ["a": "abc", "b": "12", "c": "x/y"]),
            ("myapp://four/a/bb//d%2Fe", ["a": "a", "b": "bb", "c": "", "d": "d/e"]),
            ("myapp://four/a/bb/ccc/ddd", ["a": "a", "b": "bb", "c": "ccc", "d": "ddd"]),
        ]
        for (url, expected) in cases {
            let match = try table.match(url).get()
            #expect(match.parameters == expected, "\(url)")
            for name in ["a", "b", "c", "d"] { #expect(match.parameter(name) == expected[name], "\(url) \(name)") }
            let lent = table.withMatch(url) { view in ["a", "b", "c", "d"].map { view.parameter($0) } }
            #expect(try lent.get() == ["a", "b", "c", "d"].map { expected[$0] }, "\(url)")
        }
    }

    @Test("a match is six words: Swift then destroys a Result holding one field by field (MatchedURL's discussion)")
    func sixWords() {
        #expect(MemoryLayout<RouteMatch>.size == 6 * MemoryLayout<UInt64>.size)
        #expect(MemoryLayout<MatchedURL>.size == MemoryLayout<UInt64>.size)
        #expect(MemoryLayout<CaptureSpans>.size == 2 * MemoryLayout<UInt64>.size)
    }

    @Test("the query ends at the fragment, for query items and for query rules")
    func queryBeforeFragment() throws {
        let match = try table.match("myapp://task/7?x=1#frag?y=2").get()
        #expect(match.queryItems == [QueryItem(name: "x", value: "1")])
        #expect(match.queryValue("y") == nil)
        #expect(try table.withMatch("myapp://task/7?x=1#frag?y=2") { $0.queryItems }.get() == [QueryItem(name: "x", value: "1")])
        #expect(table.firstMatch("myapp://spaced?q=ab#q=x")?.queryValues("q") == ["ab"])
        #expect(table.firstMatch("myapp://spaced?q=AB#q=x") == nil)
    }

    @Test("a route with more than four groups, one of them unset")
    func manyGroups() throws {
        let match = try #require(table.firstMatch("myapp://many/a/b/d/e/g%2Fh"))
        #expect(match.parameters == ["a": "a", "b": "b", "d": "d", "e": "e", "f": "g/h"])
        #expect(match.parameter("c") == nil)
        #expect(match.pathParameters.map(\.name) == ["a", "b", "d", "e", "f"])
    }

    @Test("a name two groups share reads the one that took part, owned and lent")
    func repeatedNames() throws {
        let table = try RouteTable.parse("""
        route either
            pattern  (?J)myapp://either/(?:n/(?<id>[0-9]+)|w/(?<id>[a-z]+))(?:/(?<tail>.+))?
            target   Either
            example  myapp://either/n/7
        """)
        for (url, id, tail) in [("myapp://either/n/42", "42", nil), ("myapp://either/w/abc/x", "abc", "x"),
                                ("myapp://either/w/caf%C3%A9", nil, nil)] as [(String, String?, String?)] {
            let match = table.firstMatch(url)
            #expect(match?.parameter("id") == id, "\(url)")
            #expect(match?.parameter("tail") == tail, "\(url)")
            #expect(match?.parameter("none") == nil)
            let lent = table.withMatch(url) { [$0.parameter("id"), $0.parameter("tail")] }
            #expect((try? lent.get()) == (match == nil ? nil : [id, tail]), "\(url)")
        }
    }

    @Test("query values by name match queryItems, encoded names included")
    func queryValues() throws {
        let match = try #require(table.firstMatch("myapp://task/1?n%61me=a+b&name=c&other=%E2%9C%93&name&=x&caf%C3%A9=1"))
        for name in ["name", "other", "café", "missing", "", "nam"] {
            let expected = match.queryItems.filter { $0.name == name }.map(\.value)
            #expect(match.queryValues(name) == expected)
            #expect(match.queryValue(name) == expected.first)
        }
        #expect(match.queryValues("name") == ["a b", "c", ""])
        // Canonically equivalent names are equal, as Swift strings are.
        #expect(match.queryValue("cafe\u{301}") == "1")
    }

    @Test("query rules see decoded values and names")
    func queryRulesDecode() {
        #expect(table.firstMatch("myapp://spaced?q=a+b")?.routeName == "spaced")
        #expect(table.firstMatch("myapp://spaced?q=a%20b")?.routeName == "spaced")
        #expect(table.firstMatch("myapp://spaced?%71=ab")?.routeName == "spaced")
        #expect(table.firstMatch("myapp://spaced?q=a%2Bb") == nil)
        #expect(table.explain("myapp://spaced?q=a%2Bb").candidates.first?.outcome
                == .queryRejected("query `q` value \"a+b\" does not match [a-z ]+"))
        #expect(table.explain("myapp://spaced").candidates.first?.outcome == .queryRejected("query `q` is required"))
    }

    @Test("canonical URL and query items of a result read from a non-canonical URL")
    func canonicalForm() throws {
        let match = try #require(table.firstMatch("MYAPP://Task/%41b/?x=1+2#frag"))
        #expect(match.canonicalURL.string == "myapp://task/Ab?x=1%202")
        #expect(match.canonicalURL.subject == "myapp://task/Ab")
        #expect(match.queryItems == [QueryItem(name: "x", value: "1 2")])
        #expect(match.parameter("id") == "Ab")
    }
}
