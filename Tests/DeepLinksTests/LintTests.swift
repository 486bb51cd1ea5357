import Testing
@testable import DeepLinks

@Suite("Lint")
struct LintTests {
    @Test("a shadowed example names the route that takes it; unreached routes are listed")
    func shadowed() throws {
        let table = try RouteTable.parse("""
        route any
            pattern  myapp://task/(?<id>[^/]+)
            target   Any
            example  myapp://task/1
        route new
            pattern  myapp://task/new
            target   New
            example  myapp://task/new
        """, file: "t.routes")
        let report = table.lint()
        #expect(report.hasErrors)
        let errors = report.diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.code) == [.exampleShadowed])
        #expect(errors.first?.location == SourceLocation(file: "t.routes", line: 8, column: 14))
        #expect(errors.first?.message.contains("taken by earlier route `any` (t.routes:1:7)") == true)
        #expect(report.unreachedRoutes == ["new"])
    }

    @Test("an example that does not match its own route says why")
    func mismatch() throws {
        let table = try RouteTable.parse("""
        route w
            pattern  myapp://widget
            target   W
            query    kind required [a-z]+
            example  myapp://widget?kind=Tasks
        """)
        let errors = table.lint().diagnostics.filter { $0.severity == .error }
        #expect(errors.map(\.code) == [.exampleMismatch])
        #expect(errors.first?.message.contains("does not match [a-z]+") == true)
    }

    @Test("Link-only routes on families that cannot show a Link are flagged", arguments: [
        (WidgetFamilyName.accessoryCircular, true), (.accessoryInline, true), (.accessoryCorner, true),
        (.systemSmall, false), (.accessoryRectangular, false), (.systemMedium, false), (.systemLarge, false),
        (.liveActivity, false),
    ])
    func linkFamilies(family: WidgetFamilyName, flagged: Bool) throws {
        let table = try RouteTable.parse("""
        route row
            pattern  myapp://row/(?<id>[0-9]+)
            target   Row
            sources  link
            families \(family.rawValue)
            example  myapp://row/1
        """)
        #expect(table.lint().diagnostics.contains { $0.code == .linkOnUnsupportedFamily } == flagged)
    }

    @Test("a route accepting widgetURL taps too is fine on a circular accessory")
    func widgetURLOnSmall() throws {
        let table = try RouteTable.parse("""
        route row
            pattern  myapp://row/(?<id>[0-9]+)
            target   Row
            sources  widgetURL link
            families accessoryCircular
            example  myapp://row/1
        """)
        #expect(!table.lint().hasErrors)
    }
}
