import Foundation
import Testing
@testable import DeepLinks

@Suite("Falling through to the next route (RouteTable.matches)")
struct FallThroughTests {
    static let table = try! RouteTable.parse("""
        route task.inbox
            pattern  myapp://task/(?<id>inbox)
            target   Inbox
            example  myapp://task/inbox
        route task.detail
            pattern  myapp://task/(?<id>[^/]+)
            target   Task
            example  myapp://task/7
        route task.linked
            pattern  myapp://task/(?<id>[^/]+)
            target   TaskFromLink
            sources  link
            example  myapp://task/8
        route task.tagged
            pattern  myapp://task/(?<id>[^/]+)
            target   TaggedTask
            query    tag required [a-z]+
            example  myapp://task/9?tag=home
        route task.any
            pattern  myapp://task/(?<rest>.+)
            target   Anything
            example  myapp://task/a/b
        route urgent
            pattern  myapp://task/(?<id>[0-9]+)
            target   Urgent
            priority 5
            example  myapp://task/1
        """)

    @Test("every route that takes the URL, in priority then file order, each with its own parameters", arguments: [
        ("myapp://task/inbox", TapContext(), ["task.inbox", "task.detail", "task.linked", "task.any"], ["inbox", "inbox", "inbox", nil]),
        ("myapp://task/42", TapContext(), ["urgent", "task.detail", "task.linked", "task.any"], ["42", "42", "42", nil]),
        ("myapp://task/42", TapContext(source: .widgetURL), ["urgent", "task.detail", "task.any"], ["42", "42", nil]),
        ("myapp://task/x?tag=home", TapContext(source: .widgetURL), ["task.detail", "task.tagged", "task.any"], ["x", "x", nil]),
        ("MYAPP://task/a%20b/", TapContext(source: .link), ["task.detail", "task.linked", "task.any"], ["a b", "a b", nil]),
        ("myapp://task/a%2Fb", TapContext(), ["task.detail", "task.linked", "task.any"], ["a/b", "a/b", nil]),
    ])
    func fallThrough(url: String, context: TapContext, routes: [String], ids: [String?]) throws {
        let matches = try Self.table.matches(url, context: context).get()
        #expect(matches.map(\.routeName) == routes)
        #expect(matches.map { $0.parameter("id") } == ids)
        #expect(matches.first == (try Self.table.match(url, context: context).get()))
        let rest = try #require(matches.last)
        #expect(rest.routeName == "task.any")
        // Each URL here has one segment after `task/`: what the catch-all takes is the others' `id`.
        #expect(rest.parameter("rest") == ids.first ?? nil)
    }

    @Test("no route, and a URL with no canonical form, fail as match does")
    func failures() {
        #expect(Self.table.matches("myapp://project/1") == .failure(.noRoute(candidates: 0)))
        #expect(Self.table.matches("myapp://task/%zz").map(\.count) == Self.table.match("myapp://task/%zz").map { _ in 1 })
        guard case .failure(.invalidURL) = Self.table.matches("myapp://task/%zz") else {
            Issue.record("an invalid escape routed")
            return
        }
    }

    @Test("over the default table's examples and variants of them, the first of matches is match, and matches are explain's winner and shadowed routes")
    func agreesWithMatchAndExplain() throws {
        let table = try RouteTable.load(directory: routesDirectory)
        var urls: [String] = []
        for route in table.routes {
            for example in route.definition.examples {
                urls += [example, example + "/", example.uppercased(), example.replacingOccurrences(of: "-", with: "%2D"),
                         example + (example.contains("?") ? "&source=stack" : "?source=stack")]
            }
        }
        var compared = 0
        for url in urls {
            for context in [TapContext(), TapContext(source: .link), TapContext(source: .widgetURL, family: .systemSmall)] {
                let all = table.matches(url, context: context)
                let first = table.match(url, context: context)
                switch (all, first) {
                case let (.success(all), .success(first)):
                    #expect(all.first == first, "\(url)")
                    let explained = table.explain(url, context: context).candidates.filter {
                        if case .shadowed = $0.outcome { return true }
                        return $0.outcome == .won
                    }
                    #expect(all.map(\.routeName) == explained.map(\.routeName), "\(url)")
                    #expect(all.map(\.parameters) == explained.map(\.parameters), "\(url)")
                    compared += 1
                case let (.failure(allFailure), .failure(firstFailure)):
                    #expect(allFailure == firstFailure, "\(url)")
                default:
                    Issue.record("matches and match disagree on \(url): \(all) against \(first)")
                }
            }
        }
        #expect(compared > urls.count)
    }
}
