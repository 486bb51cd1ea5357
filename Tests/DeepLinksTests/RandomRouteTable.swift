@testable import DeepLinks

/// A route table made from a seed, with URLs near its routes, for differential tests: several
/// resources under custom schemes and universal links, each with routes of the shapes the fast path
/// treats apart (one route per candidate set, sieved sets, chunked alternations, literal patterns,
/// catch-alls of any number of `/`, more groups than a match keeps, routes with no literal scheme),
/// query rules of every mode, tap constraints and priorities.
struct RandomRouteTable {
    let table: RouteTable
    /// URL starts that reach the table's dispatch keys (and some that do not).
    let roots: [String]

    /// Pieces appended to roots: segments, escapes (`%2F` kept, `%31` decoded, bad ones), non-ASCII
    /// text, query items for the rules' names (one written with the Kelvin sign, which Swift's
    /// string comparison takes for `K`), fragments and stray delimiters.
    static let pieces = [
        "/", "/", "/", "1", "42", "7", "new", "edit", "items", "a-1", "x", "B", "%2F", "%31", "%2", "%zz", "caf\u{E9}", "caf%C3%A9",
        "%C3", "//", "?source=a", "?source=stack&source=b", "&source=b", "?page=2", "&page=x", "&K=1", "&\u{212A}=1", "?K=yes",
        "?kind=Big", "&kind=small", "?q", "&q=%E2%98%80", "?=v", "&&", "+", "#frag", "?", "&", " ", "\u{1}", ":443", "@",
    ]

    init(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var definitions: [RouteDefinition] = []
        var roots: [String] = []
        func add(_ pattern: String, priority: Int = 0, random: inout SeededRandom) {
            let number = definitions.count
            let definition = RouteDefinition(name: "r\(number)", pattern: pattern, target: "T\(number)",
                                             queryRules: Self.queryRules(&random), priority: priority,
                                             families: Self.families(&random), sources: Self.sources(&random), examples: [])
            definitions.append(definition)
        }
        for resource in 0..<(3 + random.next(5)) {
            let (patternRoot, urlRoot) = Self.root(resource, &random)
            roots += [urlRoot, urlRoot + "/", urlRoot.uppercased()]
            for shape in Self.shapes where random.next(3) > 0 {
                add(patternRoot + shape.pattern, priority: shape.priority ?? (random.next(4) - 1), random: &random)
            }
        }
        // Routes with no literal scheme: every URL is their candidate.
        add("(?:myapp|other)://(?<host>[a-z0-9]+)/(?<id>[0-9]+)", priority: -2, random: &random)
        if random.next(2) == 0 { add("[a-z]+://(?<any>.+)", priority: -3, random: &random) }
        roots += ["other://r0", "other://thing", "myapp://nowhere", "ftp://r1", "myapp:res0", "MYAPP://RES1"]

        var builder = RouteTableBuilder()
        builder.maxRoutesPerChunk = [1, 2, 3, 24][random.next(4)]
        builder.probesBacktracking = false
        builder.add(definitions)
        self.table = try builder.build()
        self.roots = roots
    }

    /// A random URL: a root and up to six pieces.
    func url(_ random: inout SeededRandom) -> String {
        var url = roots[random.next(roots.count)]
        for _ in 0..<random.next(7) { url += Self.pieces[random.next(Self.pieces.count)] }
        return url
    }

    /// A route's shape after its resource's root; a fixed priority where the shape needs one.
    private static let shapes: [(pattern: String, priority: Int?)] = [
        ("/(?<id>[0-9]+)", nil),
        ("/(?<id>[^/]+)", nil),
        ("/(?<id>[0-9]+)/edit", nil),
        ("/(?<id>[0-9]+)/items/(?<item>[a-z0-9-]+)", nil),
        ("/new", nil),
        ("", nil),
        ("/(?<id>[0-9]+)(?:/(?<tail>[a-z]+))?", nil),
        ("/(?<rest>.*)", -1),
        ("/caf\u{E9}/(?<id>\\w+)", nil),
        ("/(?<a>[a-z]+)/(?<b>[0-9]+)/(?<c>[a-z]+)/(?<d>[0-9]+)/(?<e>x)", nil),
        ("/(?<slashy>[a-z%0-9F]+)", nil),
    ]

    /// A resource's root as a pattern and as a URL: a custom scheme, a universal link on one of a
    /// few hosts, or a custom scheme with the resource one segment down.
    private static func root(_ resource: Int, _ random: inout SeededRandom) -> (pattern: String, url: String) {
        switch random.next(3) {
        case 0: ("myapp://res\(resource)", "myapp://res\(resource)")
        case 1: ("https://h\(resource % 2)\\.example\\.com/res\(resource)", "https://h\(resource % 2).example.com/res\(resource)")
        default: ("myapp://x/res\(resource)", "myapp://x/res\(resource)")
        }
    }

    private static func queryRules(_ random: inout SeededRandom) -> [QueryRule] {
        guard random.next(3) == 0 else { return [] }
        let names = ["source", "page", "K", "kind", "q"]
        let values: [String?] = [nil, "(a|b|stack)", "[0-9]+", ".+", "[A-Z][a-z]*", "(yes|no)"]
        return (0..<(1 + random.next(2))).map { index in
            QueryRule(name: names[(index + random.next(names.count)) % names.count], isRequired: random.next(2) == 0,
                      isRepeated: random.next(3) == 0, valuePattern: values[random.next(values.count)])
        }.reduce(into: []) { rules, rule in if !rules.contains(where: { $0.name == rule.name }) { rules.append(rule) } }
    }

    private static func families(_ random: inout SeededRandom) -> [WidgetFamilyName] {
        random.next(6) == 0 ? [[.systemSmall], [.liveActivity, .systemMedium]][random.next(2)] : []
    }

    private static func sources(_ random: inout SeededRandom) -> [TapSource] {
        random.next(6) == 0 ? [[.link], [.widgetURL]][random.next(2)] : []
    }
}
