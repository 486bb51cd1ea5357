import Testing
@testable import DeepLinks

/// Candidate sets split by the subject's number of `/`, and sieved by literal prefix and next byte:
/// the analyses must be conservative, and routing must not change.
@Suite("Dispatch by segment count and sieve")
struct SegmentDispatchTests {
    static let slashCounts: [(String, Int?)] = [
        ("myapp://task/(?<id>[0-9]+)", 3),
        ("myapp://task/(?<id>[^/]+)", 3),
        ("^myapp://task/new$", 3),
        ("https://app\\.example\\.com/res1/(?<id>[0-9]+)/items/(?<item>[a-z0-9-]+)", 6),
        ("myapp://x/(?<id>\\w+)/(?:edit|view)", 4),
        ("myapp://x/(?:[0-9]+/){2}end", 5),
        ("myapp://x/\\Qa/b\\E", 4),
        ("myapp://x/(?=.*z)[a-z]+", 3),           // a lookahead consumes nothing
        ("myapp://x/(?#a/b)y", 3),                 // a comment
        ("myapp://x/[a-z/]?", nil),                // an optional `/`
        ("myapp://files/(?<rest>.*)", nil),        // `.` can match `/`
        ("myapp://files/(?<rest>.+)", nil),
        ("myapp://task/(?<id>[0-9]+)(?:/edit)?", nil),   // an optional segment
        ("myapp://task/(?<id>[0-9]+)(?:/edit)*", nil),
        ("myapp://x/(?:a|b/c)", nil),              // alternatives disagree
        ("myapp://x/(?<id>[^?]+)", nil),           // a negated class without `/`
        ("myapp://x/(?<id>[!-z]+)", nil),          // a range around `/`
        ("myapp://x/(?<id>\\S+)", nil),
        ("myapp://x/(?<id>\\p{L}+)", nil),
        ("myapp://x/\\x2f", nil),                  // an escaped `/` by code
        ("myapp://x/[[:punct:]]", nil),
        ("myapp://x/(?i)abc", nil),                // option settings: unsure
        ("myapp://x/(?<id>[0-9]+)/{1,2}", nil),
    ]

    @Test("segment count analysis", arguments: slashCounts)
    func slashCount(pattern: String, expected: Int?) {
        #expect(PatternScanner.slashCount(pattern) == expected)
    }

    static let nextBytes: [(String, String, String)] = [
        // pattern, bytes that must be in the set, bytes that must not
        ("myapp://res0/(?<id>[0-9]+)", "0459", "n/a"),
        ("myapp://res0/(?<id>\\d+)/edit", "07", "e"),
        ("myapp://x/(?<item>[a-z0-9-]+)", "az0-", "A/_"),
        ("myapp://x/(?:(?<a>[b-d]{2,}))", "bcd", "ae"),
        ("myapp://x/\\d{1}", "5", "x"),
    ]

    @Test("next byte analysis", arguments: nextBytes)
    func nextByte(pattern: String, members: String, outsiders: String) throws {
        let set = try #require(PatternScanner.firstBytesAfterLiteralPrefix(pattern))
        for byte in members.utf8 { #expect(set.contains(byte), "\(pattern) \(byte)") }
        for byte in outsiders.utf8 { #expect(!set.contains(byte), "\(pattern) \(byte)") }
    }

    @Test("no next byte set when the next part may be empty or is not understood", arguments: [
        "myapp://res0/new", "myapp://x/(?<id>[0-9]*)", "myapp://x/(?<rest>.*)", "myapp://x/(?:a|b)", "myapp://x/a?",
        "myapp://x/[^a]", "myapp://x/(?i:a)", "myapp://x/\\w+", "myapp://x/(?<id>[0-9]+)?", "myapp://x/[0-9]{0,3}", "myapp://x/é",
    ])
    func noNextByte(pattern: String) {
        #expect(PatternScanner.firstBytesAfterLiteralPrefix(pattern) == nil)
    }

    @Test("slashes are counted a word at a time like one at a time")
    func countingSlashes() {
        var random = SeededRandom(seed: 7)
        for length in 0..<40 {
            for _ in 0..<20 {
                let bytes = (0..<length).map { _ in random.next(3) == 0 ? UInt8(ascii: "/") : UInt8(ascii: "a") + UInt8(random.next(26)) }
                let start = random.next(length + 1)
                let counted = bytes.withUnsafeBufferPointer { SegmentCountIndex.slashCount($0, from: start) }
                #expect(counted == bytes[start...].filter { $0 == UInt8(ascii: "/") }.count, "\(bytes) from \(start)")
            }
        }
    }

    static let text = """
    route res.rest
        pattern  myapp://res/(?<rest>.+)
        target   Rest
        priority 10
        example  myapp://res/a/b
    route res.detail
        pattern  myapp://res/(?<id>[0-9]+)
        target   Detail
        example  myapp://res/1
    route res.any
        pattern  myapp://res/(?<any>[^/]+)
        target   Any
        example  myapp://res/x
    route res.edit
        pattern  myapp://res/(?<id>[0-9]+)/edit
        target   Edit
        example  myapp://res/1/edit
    route res.new
        pattern  myapp://res/new
        target   New
        example  myapp://res/new
    route res.tail
        pattern  myapp://res/(?<id>[0-9]+)(?:/(?<tail>[a-z]+))?
        target   Tail
        example  myapp://res/1/x
    route doc.low
        pattern  myapp://doc/(?<path>.*)
        target   Doc
        priority -1
        example  myapp://doc/a
    route doc.page
        pattern  myapp://doc/(?<page>[a-z]+)
        target   Page
        example  myapp://doc/a
    route doc.first
        pattern  myapp://doc/(?<id>[0-9]+)/(?<x>[a-z]+)
        target   First
        example  myapp://doc/1/a
    route doc.rest
        pattern  myapp://doc/(?<rest>[0-9a-z/]+)
        target   DocRest
        example  myapp://doc/1/a
    route fam.detail
        pattern  myapp://fam/(?<id>[0-9]+)
        target   FamDetail
        example  myapp://fam/1
    route fam.edit
        pattern  myapp://fam/(?<id>[0-9]+)/edit
        target   FamEdit
        example  myapp://fam/1/edit
    route fam.item
        pattern  myapp://fam/(?<id>[0-9]+)/items/(?<item>[a-z0-9-]+)
        target   FamItem
        example  myapp://fam/1/items/a
    route fam.new
        pattern  myapp://fam/new
        target   FamNew
        query    source optional (a|b)
        example  myapp://fam/new
    route fam.named
        pattern  myapp://fam/(?<name>[a-z]+)
        target   FamNamed
        example  myapp://fam/x
    """

    static func table(maxRoutesPerChunk: Int = 24) throws -> RouteTable {
        var builder = RouteTableBuilder()
        builder.maxRoutesPerChunk = maxRoutesPerChunk
        builder.addFile(text: text, file: "segments.routes")
        return try builder.build()
    }

    @Test("priority and file order are kept across buckets")
    func priorityAcrossBuckets() throws {
        let table = try Self.table()
        // res.rest may match any number of `/` and has the highest priority: it wins in every bucket.
        #expect(table.firstMatch("myapp://res/42")?.routeName == "res.rest")
        #expect(table.firstMatch("myapp://res/42/edit")?.routeName == "res.rest")
        #expect(table.firstMatch("myapp://res/1/2/3/4")?.routeName == "res.rest")
        // doc.low may match any number of `/` but has the lowest priority: fixed-count routes win.
        #expect(table.firstMatch("myapp://doc/a")?.routeName == "doc.page")
        #expect(table.firstMatch("myapp://doc/1/a")?.routeName == "doc.first")   // before doc.rest in file order
        #expect(table.firstMatch("myapp://doc/1/a/b")?.routeName == "doc.rest")
        #expect(table.firstMatch("myapp://doc/A/B/C")?.routeName == "doc.low")
        #expect(table.firstMatch("myapp://doc/a-b")?.routeName == "doc.low")
    }

    @Test("a lone candidate refused by its query rules gives way to the next route")
    func loneCandidateQueryRules() throws {
        let table = try Self.table()
        #expect(table.firstMatch("myapp://fam/new?source=a")?.routeName == "fam.new")
        #expect(table.firstMatch("myapp://fam/new?source=c")?.routeName == "fam.named")
        #expect(table.firstMatch("myapp://fam/42")?.routeName == "fam.detail")
        #expect(table.firstMatch("myapp://fam/42/items/x-1")?.parameters == ["id": "42", "item": "x-1"])
        #expect(table.firstMatch("myapp://fam/42/items/X") == nil)
    }

    @Test("explain lists the bucket's candidates in order")
    func explainBuckets() throws {
        let table = try Self.table()
        let explanation = table.explain("myapp://res/42")
        #expect(explanation.dispatchedOn == "myapp://res/* with 3 `/`")
        // res.new is filed under its own first segment; res.edit always has four `/`.
        #expect(explanation.candidates.map(\.routeName) == ["res.rest", "res.detail", "res.any", "res.tail"])
        #expect(explanation.candidates.map(\.outcome) == [.won, .shadowed(by: "res.rest"), .shadowed(by: "res.rest"),
                                                          .shadowed(by: "res.rest")])
        let deep = table.explain("myapp://doc/1/a/b")
        #expect(deep.dispatchedOn == "myapp://doc/* with another number of `/`")
        #expect(deep.candidates.map(\.routeName) == ["doc.rest", "doc.low"])
    }

    @Test("match agrees with trying every route in order (referenceMatch)", arguments: [1, 2, 24])
    func agreesWithEveryRoute(maxRoutesPerChunk: Int) throws {
        let table = try Self.table(maxRoutesPerChunk: maxRoutesPerChunk)
        let roots = ["myapp://res", "myapp://doc", "myapp://res/", "myapp://doc/", "myapp://fam/", "myapp://fam/new"]
        let pieces = ["/", "42", "7", "new", "edit", "items", "a", "B", "x/", "%2F", "-"]
        var random = SeededRandom(seed: UInt64(maxRoutesPerChunk))
        for _ in 0..<2_000 {
            var url = roots[random.next(roots.count)]
            for _ in 0..<random.next(6) { url += pieces[random.next(pieces.count)] }
            #expect(RoutingAnswer(table.match(url)) == table.referenceMatch(url), "\(url)")
        }
    }

    @Test("a key with a bucket past the slots' reach searches its buckets")
    func deepBuckets() throws {
        let deep = String(repeating: "a/", count: SegmentCountIndex.maxSlots + 6)
        let table = try RouteTable.parse("""
        route deep.long
            pattern  myapp://deep/\(deep)(?<id>[0-9]+)
            target   Long
            example  myapp://deep/\(deep)1
        route deep.short
            pattern  myapp://deep/(?<id>[0-9]+)
            target   Short
            example  myapp://deep/1
        route deep.rest
            pattern  myapp://deep/(?<rest>.+)
            target   Rest
            priority -1
            example  myapp://deep/a/b
        """)
        #expect(table.firstMatch("myapp://deep/\(deep)42")?.parameters == ["id": "42"])
        #expect(table.firstMatch("myapp://deep/\(deep)42")?.routeName == "deep.long")
        #expect(table.firstMatch("myapp://deep/42")?.routeName == "deep.short")
        #expect(table.firstMatch("myapp://deep/\(deep)x")?.routeName == "deep.rest")
        #expect(table.firstMatch("myapp://deep/a/42")?.routeName == "deep.rest")
        for url in ["myapp://deep/\(deep)42", "myapp://deep/\(deep)/42", "myapp://deep/42", "myapp://deep/a/b", "myapp://deep"] {
            #expect(RoutingAnswer(table.match(url)) == table.referenceMatch(url), "\(url)")
        }
    }
}
