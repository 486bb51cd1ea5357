import Testing
@testable import DeepLinks

/// The fast path against its specification: every URL must get the same answer through `match`,
/// `withMatch`, `withMatch(utf8:)` and `referenceMatch`, over the default `Routes/` table and over
/// generated tables, for taps from every kind of context.
@Suite("Fast path agrees with referenceMatch")
struct FastPathAgreementTests {
    static let contexts = [TapContext(), TapContext(source: .link), TapContext(source: .widgetURL, family: .systemSmall),
                           TapContext(family: .liveActivity)]

    /// How many answers of each kind a run compared, so that a run that compares only failures fails.
    struct Tally {
        var matched = 0, noRoute = 0, invalid = 0

        mutating func count(_ answer: RoutingAnswer) {
            switch answer {
            case .matched: matched += 1
            case .noRoute: noRoute += 1
            case .invalidURL: invalid += 1
            case .matchFailed: break
            }
        }
    }

    /// Routes `url` from `context` every way; records an issue for each way whose answer is not the
    /// reference's, and returns the reference's.
    @discardableResult
    static func expectAgreement(_ table: RouteTable, _ url: String, context: TapContext = .any,
                                sourceLocation: Testing.SourceLocation = #_sourceLocation) -> RoutingAnswer {
        let reference = table.referenceMatch(url, context: context)
        let bytes = Array(url.utf8)
        let answers = [
            ("match", RoutingAnswer(table.match(url, context: context))),
            ("withMatch", RoutingAnswer(table.withMatch(url, context: context) { RoutingAnswer($0) })),
            ("withMatch(utf8:)", bytes.withUnsafeBufferPointer { RoutingAnswer(table.withMatch(utf8: $0, context: context) { RoutingAnswer($0) }) }),
            ("referenceMatch(utf8:)", bytes.withUnsafeBufferPointer { table.referenceMatch(utf8: $0, context: context) }),
        ]
        for (way, answer) in answers where answer != reference {
            Issue.record("\(way) answers \(answer), the reference \(reference): \(url.debugDescription) from \(context)",
                         sourceLocation: sourceLocation)
        }
        return reference
    }

    /// Variants of `url`: edits a user, a typo or an attacker might make.
    static func variants(of url: String, _ random: inout SeededRandom) -> [String] {
        let pieces = RandomRouteTable.pieces + ["ORD-2024-0002", "task-9", "proj_x", "?source=homescreen", "&source=standby",
                                                "?kind=TaskList&source=stack", "?image=a+b.png", "&image=", "%E2%98%80", "A"]
        var variants = [url, url + "/", url.uppercased(), url.lowercased()]
        for _ in 0..<12 {
            var characters = Array(url)
            for _ in 0..<(1 + random.next(3)) {
                let position = random.next(characters.count + 1)
                switch random.next(4) {
                case 0: characters.insert(contentsOf: pieces[random.next(pieces.count)], at: position)
                case 1: if position < characters.count { characters.remove(at: position) }
                case 2: characters += pieces[random.next(pieces.count)]
                default:
                    // A character percent-encoded, in upper or lower case hex.
                    if position < characters.count, let ascii = characters[position].asciiValue {
                        let hex = String(ascii, radix: 16, uppercase: random.next(2) == 0)
                        characters.replaceSubrange(position...position, with: "%" + (hex.count == 1 ? "0" : "") + hex)
                    }
                }
            }
            variants.append(String(characters))
        }
        return variants
    }

    /// Found by `generatedTables` (seed 5): `myapp://res1?source=a&kind=small&\u{212A}=1@` routed past a
    /// route's `K optional [0-9]+` rule. The Kelvin sign is canonically equivalent to `K`, so as a
    /// Swift string the item is named `K` (as `queryValue("K")` reads it, and as its escaped form
    /// `%E2%84%AA` was already checked), but the fast path took a non-ASCII item name for never equal
    /// to an ASCII rule name, and skipped the rule.
    @Test("a query item named with a character canonically equivalent to the rule's name is checked by the rule")
    func canonicallyEquivalentQueryName() throws {
        let table = try RouteTable.parse("""
        route k
            pattern  myapp://k
            target   K
            query    K optional [0-9]+
            example  myapp://k?K=1
        route rest
            pattern  myapp://(?<rest>.*)
            target   Rest
            priority -1
            example  myapp://other
        """)
        let rest = [PathParameter(name: "rest", value: "k")]
        for name in ["K", "\u{212A}", "%E2%84%AA"] {
            // (Query items compare as Swift strings too: an item named with the Kelvin sign equals one named `K`.)
            #expect(Self.expectAgreement(table, "myapp://k?\(name)=1@")
                    == .matched(route: "rest", pathParameters: rest, queryItems: [QueryItem(name: "K", value: "1@")]), "\(name)")
            #expect(Self.expectAgreement(table, "myapp://k?\(name)=12&\(name)=3")
                    == .matched(route: "rest", pathParameters: rest, queryItems: [QueryItem(name: "K", value: "12"), QueryItem(name: "K", value: "3")]),
                    "\(name)")
            #expect(try table.match("myapp://k?\(name)=12").get().queryValue("K") == "12", "\(name)")
        }
    }

    @Test("the default Routes/ table, on its examples and variants of them")
    func defaultTable() throws {
        let table = try RouteTable.load(directory: routesDirectory)
        var random = SeededRandom(seed: 11)
        var tally = Tally()
        for route in table.routes {
            for example in route.definition.examples {
                for url in Self.variants(of: example, &random) {
                    for context in Self.contexts { tally.count(Self.expectAgreement(table, url, context: context)) }
                }
            }
        }
        #expect(tally.matched > 300 && tally.noRoute > 300 && tally.invalid > 20, "\(tally)")
    }

    @Test("generated tables, on URLs near their routes", arguments: 0..<8)
    func generatedTables(seed: UInt64) throws {
        let generated = try RandomRouteTable(seed: 700 + seed)
        var random = SeededRandom(seed: seed)
        var tally = Tally()
        for _ in 0..<1_500 {
            let url = generated.url(&random)
            tally.count(Self.expectAgreement(generated.table, url, context: Self.contexts[random.next(Self.contexts.count)]))
        }
        #expect(tally.matched > 50 && tally.noRoute > 30 && tally.invalid > 50, "\(tally)")
    }
}
