import Testing
@testable import DeepLinks

/// `MatchPlan.verbatimDispatch` checks only the bytes after a dispatch key found in the URL; when
/// it answers, it must give the candidate set and layout of the full verbatim check followed by
/// dispatch, on every input.
@Suite("Verbatim dispatch agrees with the verbatim check and dispatch")
struct VerbatimDispatchTests {
    /// Keys of every level, keys that are not canonical (upper case, a port, an escape) and keys that share their start with others.
    static let text = """
    route host
        pattern  myapp://res0
        target   Host
        example  myapp://res0
    route host.id
        pattern  myapp://res0/(?<id>[0-9]+)
        target   Id
        example  myapp://res0/1
    route host.edit
        pattern  myapp://res0/(?<id>[0-9]+)/edit
        target   Edit
        example  myapp://res0/1/edit
    route host.any
        pattern  myapp://res0/(?<rest>.*)
        target   Any
        priority -1
        example  myapp://res0/a/b/c
    route segment
        pattern  https://app\\.example\\.com/res1/(?<id>[0-9]+)
        target   Segment
        example  https://app.example.com/res1/1
    route segment.items
        pattern  https://app\\.example\\.com/res1/(?<id>[0-9]+)/items/(?<item>[a-z0-9-]+)
        target   Items
        example  https://app.example.com/res1/1/items/a
    route segment.new
        pattern  https://app\\.example\\.com/res1/new
        target   New
        query    source optional (a|b)
        example  https://app.example.com/res1/new
    route upper
        pattern  myapp://Upper/(?<id>[0-9]+)
        target   Upper
        example  myapp://upper/1
    route port
        pattern  https://example\\.com:8443/res2/(?<id>[0-9]+)
        target   Port
        example  https://example.com:8443/res2/1
    route escaped
        pattern  myapp://esc/a%2Fb/(?<id>[0-9]+)
        target   Escaped
        example  myapp://esc/a%2Fb/1
    route scheme
        pattern  longscheme://host/(?<id>[0-9]+)
        target   Scheme
        example  longscheme://host/1
    route unkeyed
        pattern  [a-z]+://free/(?<id>[0-9]+)
        target   Free
        example  myapp://free/1
    """

    static func table() throws -> RouteTable {
        var builder = RouteTableBuilder()
        builder.addFile(text: text, file: "verbatim.routes")
        // Some patterns here are not canonical on purpose, and the probe is not what is tested.
        builder.probesBacktracking = false
        return try builder.build()
    }

    static let roots = ["myapp://res0", "https://app.example.com/res1", "myapp://Upper", "myapp://upper",
                        "https://example.com:8443/res2", "myapp://esc/a%2Fb", "longscheme://host", "myapp://free",
                        "myapp://res0x", "myapp://nores", "https://app.example.com", "HTTPS://app.example.com/res1", "myapp:res0",
                        "myapp:/res0", "myapp://", "m://res0"]
    static let pieces = ["/", "//", "42", "new", "edit", "items", "a", "B", "?", "?source=a", "&", "=", "#x", "%2F", "%41",
                         "é", " ", "+", "@", ":", "!", "$", "~", "-", ".", "aaaaaaaa",
                         // Long canonical pieces, for URLs past the byte map's 64 bytes.
                         "/0123456789abcdef0123456789", "?q=0123456789abcdef0123456789"]

    @Test("generated URLs", arguments: 0..<4)
    func generated(seed: Int) throws {
        let table = try Self.table()
        var random = SeededRandom(seed: 5_000 + UInt64(seed))
        // Answered by length: under 16 bytes and over 64 the stops are found by words, in between by a byte map.
        var answered = (short: 0, mapped: 0, long: 0)
        for _ in 0..<10_000 {
            var url = Self.roots[random.next(Self.roots.count)]
            for _ in 0..<random.next(10) { url += Self.pieces[random.next(Self.pieces.count)] }
            if expectAgreement(url, table, maxURLLength: 4_096, maxParameterLength: 1_024) {
                let count = url.utf8.count
                if count < URLByteMap.shortest { answered.short += 1 } else if count > URLByteMap.longest { answered.long += 1 } else {
                    answered.mapped += 1
                }
            }
            _ = expectAgreement(url, table, maxURLLength: 40, maxParameterLength: 6)
        }
        // The fast path must be taken for many URLs of each kind here (about one in twenty is canonical), or it tests nothing.
        #expect(answered.short > 40 && answered.mapped > 200 && answered.long > 12, "\(answered)")
    }

    @Test("the default Routes/ table on its examples, and their near misses")
    func defaultTable() throws {
        let table = try RouteTable.load(directory: routesDirectory)
        var answered = 0
        for route in table.routes {
            for example in route.definition.examples {
                for url in [example, example + "/", example + "//", example + "/x", example + "?a=b", example + "#f",
                            example.uppercased(), example + "%2F"] where expectAgreement(url, table, maxURLLength: 4_096, maxParameterLength: 1_024) {
                    answered += 1
                }
            }
        }
        #expect(answered > table.routes.count)
    }

    @Test("keys that are not canonical are never vouched for")
    func nonCanonicalKeys() throws {
        let table = try Self.table()
        for url in ["myapp://Upper/1", "https://example.com:8443/res2/1", "myapp://esc/a%2Fb/1"] {
            let answer = url.utf8.withContiguousStorageIfAvailable {
                table.plan.verbatimDispatch($0, maxURLLength: 4_096, maxParameterLength: 1_024).answer
            }
            #expect(answer! == nil, "\(url)")
        }
        // The routes stay reachable the other way.
        #expect(table.firstMatch("https://example.com:8443/res2/7")?.parameters == ["id": "7"])
    }

    @Test("a capital or a non-ASCII byte before the path is found wherever it is, and nothing else is taken for one")
    func capitalsBeforeThePath() {
        var random = SeededRandom(seed: 7)
        // Mostly bytes that are neither, with the neighbours of `A` and `Z` among them.
        let plain = Array("abcxyz09.-:/@[`{".utf8), marked: [UInt8] = [UInt8(ascii: "A"), UInt8(ascii: "Q"), UInt8(ascii: "Z"), 0xC3, 0xFF]
        for _ in 0..<5_000 {
            let count = 8 + random.next(40)
            let bytes = (0..<count).map { _ in random.next(12) == 0 ? marked[random.next(marked.count)] : plain[random.next(plain.count)] }
            let end = random.next(count + 1)
            let expected = bytes[..<end].contains { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || $0 >= 0x80 }
            bytes.withUnsafeBufferPointer { buffer in
                #expect(MatchPlan.hasCapitalOrNonASCII(buffer.baseAddress!, count: count, end: end) == expected, "\(bytes) up to \(end)")
            }
        }
    }

    @Test("URLs with capitals in scheme or host are found not verbatim, and still route")
    func notVerbatim() throws {
        let table = try RouteTable.load(directory: routesDirectory)
        func dispatched(_ url: String) -> VerbatimDispatch {
            var source = url
            return source.withUTF8 { table.plan.verbatimDispatch($0, maxURLLength: 4_096, maxParameterLength: 1_024) }
        }
        for url in ["MYAPP://task/task-42", "myapp://TASK/task-42", "https://MyApp.example.com/task/task-42"] {
            #expect(dispatched(url).isNotVerbatim, "\(url)")
            #expect(table.firstMatch(url)?.parameters == ["id": "task-42"], "\(url)")
        }
        #expect(dispatched("myapp://tásk/task-42").isNotVerbatim)
        // A host no key names, in lower case: it cannot tell (the full check finds the URL canonical).
        #expect(dispatched("myapp://elsewhere/task-42").isUndecided)
        // An escape after the key is left to the full check (saying so cost the usual path more than it spares).
        #expect(dispatched("myapp://task/task-%34%32").isUndecided)
        #expect(table.firstMatch("myapp://task/task-%34%32")?.parameters == ["id": "task-42"])
    }

    /// Checks one URL; returns whether the fast path answered.
    @discardableResult
    func expectAgreement(_ url: String, _ table: RouteTable, maxURLLength: Int, maxParameterLength: Int) -> Bool {
        let canonicalizer = URLCanonicalizer(maxURLLength: maxURLLength, maxParameterLength: maxParameterLength)
        var source = url
        return source.withUTF8 { bytes in
            let dispatched = table.plan.verbatimDispatch(bytes, maxURLLength: maxURLLength, maxParameterLength: maxParameterLength)
            if dispatched.isNotVerbatim {
                #expect(canonicalizer.verbatimLayout(bytes) == nil, "verbatim dispatch called \(url) not verbatim; the verbatim check accepts it")
            }
            guard let fast = dispatched.answer else { return false }
            guard let layout = canonicalizer.verbatimLayout(bytes) else {
                Issue.record("verbatim dispatch accepted \(url), the verbatim check refuses it")
                return true
            }
            #expect(fast.layout == layout, "\(url)")
            let set = table.plan.candidateSet(for: UnsafeBufferPointer(start: bytes.baseAddress, count: layout.length), layout: layout)
            #expect(fast.set == set, "\(url): set \(fast.set), dispatch gives \(set)")
            // The set's one route, read from the slot beside the set (unless the dispatch did not read one).
            let routes = table.candidateSets[set].routes
            if dispatched.loneRoute != .unread {
                #expect(dispatched.loneRoute == (routes.count == 1 ? LoneRoute(order: routes[0]) : .notAlone),
                        "\(url): lone route \(dispatched.loneRoute), set has \(routes)")
            }
            return true
        }
    }
}
