import Testing
@testable import DeepLinks

/// Chunks leave out the key bytes dispatch has already compared and start matching after them;
/// routing must not change: every URL reaches the route (and parameters) that trying each route's
/// own pattern in order gives, which is what explain does.
@Suite("Chunks match after the dispatch key")
struct ChunkPrefixTests {
    static let dropped: [(String, Int, String?)] = [
        ("myapp://task/(?<id>[0-9]+)", 12, "/(?<id>[0-9]+)"),
        ("^myapp://task/x", 13, "x"),
        ("https://a\\.example\\.com/t", 21, "/t"),
        ("https://a\\.example\\.com/t", 10, "example\\.com/t"),
        ("myapp://tasks?/x", 12, "s?/x"),
        ("myapp://tasks?/x", 13, nil),          // the `s` is optional
        ("myapp://task/x", 15, nil),             // longer than the pattern
        ("myapp://a|myapp://b", 8, nil),         // top-level alternation
        ("myapp://x/\\G(?<a>.)", 10, nil),       // \G asserts the start offset
        ("myapp://caf\u{E9}/x", 12, nil),        // inside `é`
        ("myapp://caf\u{E9}/x", 13, "/x"),
    ]

    @Test("dropping a literal prefix", arguments: dropped)
    func droppingPrefix(pattern: String, count: Int, expected: String?) {
        #expect(PatternScanner.droppingLiteralPrefix(pattern, byteCount: count) == expected)
    }

    static let text = """
    route scheme.any
        pattern  myapp:(?<rest>zz.*)
        target   A
        example  myapp:zz
    route host.a
        pattern  myapp://a/(?<id>[0-9]+)
        target   B
        example  myapp://a/1
    route host.a.optional
        pattern  myapp://ab?/(?<x>[a-z]+)
        target   C
        example  myapp://a/x
    route host.a.new
        pattern  ^myapp://a/new
        target   D
        example  myapp://a/new
    route universal
        pattern  https://ex\\.com/(?<screen>task|project)/(?<id>[0-9]+)/?
        target   E
        example  https://ex.com/task/1
    route universal.task
        pattern  https://ex\\.com/task/(?<id>.+)
        target   F
        example  https://ex.com/task/x
    route universal.alternation
        pattern  https://ex\\.com/help|https://ex\\.com/task/help
        target   G
        example  https://ex.com/help
    route universal.caf
        pattern  https://ex\\.com/caf\u{E9}(?<n>[0-9]*)
        target   H
        example  https://ex.com/café1
    route anyhost
        pattern  https://[a-z.]+/task/(?<id>[0-9]+)
        target   I
        example  https://other.com/task/1
    """

    @Test("match agrees with trying each route's own pattern", arguments: 0..<3)
    func agreesWithExplain(seed: Int) throws {
        var builder = RouteTableBuilder()
        builder.maxRoutesPerChunk = 1 + seed * 2
        builder.addFile(text: Self.text, file: "prefix.routes")
        let table = try builder.build()
        let roots = ["myapp:", "myapp://a", "myapp://ab", "myapp://a/", "https://ex.com", "https://EX.com:443", "https://other.com"]
        let pieces = ["/", "task", "project", "help", "new", "zz", "x", "1", "42", "caf%C3%A9", "café", "%2F", "?a=1"]
        var random = SeededRandom(seed: UInt64(seed))
        for _ in 0..<3_000 {
            var url = roots[random.next(roots.count)]
            for _ in 0..<random.next(5) { url += pieces[random.next(pieces.count)] }
            let match = table.firstMatch(url)
            let explanation = table.explain(url)
            #expect(match?.routeName == explanation.winner, "\(url)")
            if let match, let won = explanation.candidates.first(where: { $0.outcome == .won }) {
                #expect(match.parameters == won.parameters, "\(url)")
            }
        }
    }
}
