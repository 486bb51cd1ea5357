import Testing
@testable import DeepLinks

/// A route of a shorter dispatch key is left out of a longer key's candidate sets when no subject
/// of that key can start the way the route's pattern does (its literal prefix and next byte).
@Suite("Candidate sets leave out routes that cannot start like their key")
struct RouteStartTests {
    @Test("literal prefix and next byte against a key", arguments: [
        ("myapp://res0/(?<id>[0-9]+)", "myapp://res0/new", false),      // `n` cannot start an id
        ("myapp://res0/(?<id>[0-9]+)", "myapp://res0/42", true),
        ("myapp://res0/(?<slug>[a-z]+)", "myapp://res0/new", true),
        ("myapp://res0/n(?<rest>.*)", "myapp://res0/new", true),        // no known next byte: kept
        ("myapp://res0/x(?<rest>.*)", "myapp://res0/new", false),       // the prefix differs from the key
        ("myapp://res0/new/(?<id>[0-9]+)", "myapp://res0/new", true),  // a longer prefix, `/` after the key
        ("myapp://res0/newer", "myapp://res0/new", false),             // a longer prefix, no `/` after the key
        ("myapp://res0(?<tail>/[a-z]+)?", "myapp://res0", true),
        ("myapp://res0/(?<id>[0-9]+)", "myapp://res0", true),          // the `/` after the host
        ("myapp://res0(?<x>[0-9])", "myapp://res0", false),            // a host key is followed by `/` or nothing
        ("[a-z]+://res0/(?<id>[0-9]+)", "myapp://res0/new", true),     // no prefix, first byte `m` in [a-z]
        ("[0-9]+://res0/(?<id>[0-9]+)", "myapp://res0/new", false),
    ])
    func canStart(pattern: String, key: String, expected: Bool) {
        #expect(RouteStart(pattern: pattern).canStart(afterKey: Array(key.utf8)) == expected)
    }

    @Test("a first-segment key's sets hold only the routes that can match there; matching is unchanged")
    func pruned() throws {
        let table = try RouteTable.parse("""
        route id
            pattern  myapp://res0/(?<id>[0-9]+)
            target   Id
            example  myapp://res0/42
        route new
            pattern  myapp://res0/new
            target   New
            example  myapp://res0/new
        route slug
            pattern  myapp://res0/(?<slug>[a-z]+)
            target   Slug
            example  myapp://res0/newer
        """)
        let newSets = table.candidateSets.filter { String(decoding: $0.key, as: UTF8.self) == "myapp://res0/new" }
        #expect(!newSets.isEmpty)
        for set in newSets { #expect(!set.routes.contains(table.route(named: "id")!.order), "\(set.label): \(set.routes)") }
        #expect(newSets.contains { $0.routes.contains(table.route(named: "slug")!.order) })
        for (url, route) in [("myapp://res0/new", "new"), ("myapp://res0/42", "id"), ("myapp://res0/newer", "slug"),
                             ("MYAPP://res0/new/", "new"), ("myapp://res0/NEW", nil)] {
            #expect(table.firstMatch(url)?.routeName == route, "\(url)")
        }
    }
}
