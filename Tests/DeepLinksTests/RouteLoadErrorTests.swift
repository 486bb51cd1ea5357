import Testing
@testable import DeepLinks

@Suite("Load errors: file:line:column, all at once")
struct RouteLoadErrorTests {
    func diagnostics(_ text: String) -> [RouteDiagnostic] {
        do {
            _ = try RouteTable.parse(text, file: "bad.routes")
            Issue.record("expected the table to be refused")
            return []
        } catch {
            return error.diagnostics
        }
    }

    @Test("every error of a file is reported, each at its exact line and column")
    func allErrorsWithPositions() {
        let text = """
        # header comment
        route good
            pattern  myapp://good/(?<id>[0-9]+)
            target   Good
            example  myapp://good/1

        route badregex
            pattern  myapp://x/(?<id>[0-9+)
            target   X
            example  myapp://x/1

        route unknown
            pattern  myapp://u
            colour   blue
            target   U
            example  myapp://u

        route good
            pattern  myapp://dup
            target   Dup
            example  myapp://dup

        route noexample
            pattern  myapp://n
            target   N

        route groupname
            pattern  myapp://g/(?<_id>[0-9]+)
            target   G
            example  myapp://g/1
        """
        let found = diagnostics(text).map { "\($0.location.line):\($0.location.column) \($0.code.rawValue)" }
        #expect(found == [
            "8:36 bad-pattern",        // PCRE2 reports the end of the pattern: the class never closes
            "14:5 unknown-attribute",
            "18:7 duplicate-route",
            "23:7 missing-example",
            "28:27 invalid-group-name",
        ])
    }

    @Test("a bad regex carries PCRE2's own message")
    func pcre2Message() {
        let found = diagnostics("route r\n    pattern  myapp://(?<id>a)(?<id>b)\n    target T\n    example myapp://ab\n")
        #expect(found.count == 1)
        #expect(found.first?.code == .badPattern)
        #expect(found.first?.message.contains("two named subpatterns have the same name") == true)
        #expect(found.first?.location == SourceLocation(file: "bad.routes", line: 2, column: 36))
        #expect(found.first?.description.hasPrefix("bad.routes:2:36: error: bad pattern:") == true)
    }

    static let singleErrors: [(String, String, String)] = [
        ("route r\n  pattern myapp://x\n  target T\n  example myapp://x\n  priority high\n", "5:12", "bad-value"),
        ("route r\n  pattern myapp://x\n  target T\n  example myapp://x\n  families systemSmall, systemHuge\n", "5:25", "bad-value"),
        ("route r\n  pattern myapp://x\n  target T\n  example myapp://x\n  sources tap\n", "5:11", "bad-value"),
        ("route r\n  pattern myapp://x\n  target T\n  example myapp://x\n  query kind sometimes\n", "5:14", "bad-query-rule"),
        ("route r\n  pattern myapp://x\n  target T\n  example myapp://x\n  query kind required [a-\n", "5:26", "bad-pattern"),
        ("route r\n  pattern myapp://x/(*COMMIT)a\n  target T\n  example myapp://x/a\n", "2:21", "unsupported-pattern"),
        ("route r\n  pattern myapp://x/(?<a>.)\\k<a>\n  target T\n  example myapp://x/aa\n", "2:11", "unsupported-pattern"),
        ("route r\n  pattern myapp://x/(?<kind>.)\n  target T\n  query kind optional\n  example myapp://x/a\n", "2:24", "invalid-group-name"),
        ("route r\n  pattern myapp://x\n  target T\n  example not a url\n", "4:11", "bad-example"),
        ("route r\n  pattern myapp://x\n  example myapp://x\n", "1:7", "missing-attribute"),
        ("route r\n  pattern myapp://x\n  pattern myapp://y\n  target T\n  example myapp://x\n", "3:3", "duplicate-attribute"),
        ("  pattern myapp://x\n", "1:3", "syntax"),
        ("route bad name!\n  pattern myapp://x\n  target T\n  example myapp://x\n", "1:7", "invalid-route-name"),
        ("route r\n  pattern myapp://x/(?<a>(?:a+)+)!\n  target T\n  example myapp://x/a!\n", "2:11", "catastrophic-backtracking"),
    ]

    @Test("single errors at exact positions", arguments: singleErrors)
    func singleError(text: String, position: String, code: String) {
        let found = diagnostics(text).map { "\($0.location.line):\($0.location.column) \($0.code.rawValue)" }
        #expect(found == ["\(position) \(code)"])
    }

    @Test("errors across files are all reported, duplicates across files included")
    func acrossFiles() {
        var builder = RouteTableBuilder()
        builder.addFile(text: "route a\n  pattern myapp://a\n  target A\n  example myapp://a\n", file: "one.routes")
        builder.addFile(text: "route a\n  pattern myapp://b\n  target B\n  example myapp://b\nroute c\n  pattern (\n  target C\n  example myapp://c\n", file: "two.routes")
        #expect(throws: RouteLoadError.self) { try builder.build() }
        do { _ = try builder.build() } catch {
            #expect(error.diagnostics.map(\.location.description) == ["two.routes:1:7", "two.routes:6:12"])
            #expect(error.diagnostics[0].message.contains("one.routes:1:7"))
        }
    }
}
