import Testing
@testable import DeepLinks

/// `RouteTable.referenceMatch`, the specification of matching, against answers written out by hand:
/// table order, falling through on query rules and tap constraints, what a match reads, and every
/// way of failing.
@Suite("referenceMatch: the rules of matching, one by one")
struct ReferenceMatchTests {
    static let text = """
    route task.any
        pattern  myapp://task/(?<rest>.*)
        target   Any
        priority -1
        example  myapp://task/x
    route task.detail
        pattern  myapp://task/(?<id>[0-9]+)
        target   Detail
        query    source required (homescreen|stack)
        example  myapp://task/1?source=stack
    route task.tagged
        pattern  myapp://task/(?<id>[0-9]+)
        target   Tagged
        query    tag required repeated [a-z]+
        query    page optional [0-9]+
        example  myapp://task/1?tag=a
    route task.link
        pattern  myapp://task/(?<id>[0-9]+)(?:/(?<tail>[a-z]+))?
        target   Link
        sources  link
        families systemMedium
        example  myapp://task/1/a
    route task.encoded
        pattern  myapp://task/(?<name>[^/]+)/(?<id>[0-9]+)
        target   Encoded
        example  myapp://task/a%2Fb/1
    """

    static func answer(_ url: String, context: TapContext = .any) throws -> RoutingAnswer {
        try RouteTable.parse(text).referenceMatch(url, context: context)
    }

    static func matched(_ route: String, _ parameters: [(String, String)], _ items: [(String, String)] = []) -> RoutingAnswer {
        .matched(route: route, pathParameters: parameters.map { PathParameter(name: $0.0, value: $0.1) },
                 queryItems: items.map { QueryItem(name: $0.0, value: $0.1) })
    }

    @Test("the first route in table order whose pattern, query rules and tap constraints accept the URL")
    func tableOrder() throws {
        // No query: task.detail and task.tagged refuse it; task.link takes only Link taps from medium widgets.
        #expect(try Self.answer("myapp://task/42") == Self.matched("task.link", [("id", "42")]))
        #expect(try Self.answer("myapp://task/42", context: TapContext(source: .widgetURL)) == Self.matched("task.any", [("rest", "42")]))
        #expect(try Self.answer("myapp://task/42", context: TapContext(source: .link, family: .systemSmall))
                == Self.matched("task.any", [("rest", "42")]))
        #expect(try Self.answer("myapp://task/42/b", context: TapContext(source: .link, family: .systemMedium))
                == Self.matched("task.link", [("id", "42"), ("tail", "b")]))
        // Priority -1 puts the catch-all last, though it comes first in the file.
        #expect(try Self.answer("myapp://task/42?source=stack") == Self.matched("task.detail", [("id", "42")], [("source", "stack")]))
    }

    @Test("query rules: required, once unless repeated, every value whole, names decoded")
    func queryRules() throws {
        #expect(try Self.answer("myapp://task/7?source=homescreenx") == Self.matched("task.link", [("id", "7")], [("source", "homescreenx")]))
        #expect(try Self.answer("myapp://task/7?source=stack&source=stack")
                == Self.matched("task.link", [("id", "7")], [("source", "stack"), ("source", "stack")]))
        #expect(try Self.answer("myapp://task/7?tag=a&tag=b&x=%20") == Self.matched("task.tagged", [("id", "7")],
                                                                                    [("tag", "a"), ("tag", "b"), ("x", " ")]))
        #expect(try Self.answer("myapp://task/7?t%61g=a+b") == Self.matched("task.link", [("id", "7")], [("tag", "a b")]))
        #expect(try Self.answer("myapp://task/7?%74ag=ab&page=2") == Self.matched("task.tagged", [("id", "7")], [("tag", "ab"), ("page", "2")]))
        #expect(try Self.answer("myapp://task/7?tag=a&page=2&page=3") == Self.matched("task.link", [("id", "7")],
                                                                                      [("tag", "a"), ("page", "2"), ("page", "3")]))
    }

    @Test("parameters are decoded, a kept %2F included, and only groups that took part are read")
    func parameters() throws {
        #expect(try Self.answer("myapp://task/a%2Fb/1") == Self.matched("task.encoded", [("name", "a/b"), ("id", "1")]))
        #expect(try Self.answer("myapp://task/caf%C3%A9/1") == Self.matched("task.encoded", [("name", "caf\u{E9}"), ("id", "1")]))
        #expect(try Self.answer("myapp://task/%25/1/") == Self.matched("task.encoded", [("name", "%"), ("id", "1")]))
    }

    @Test("no route, an invalid URL with the first rule it breaks, a URL over the limit, bytes that are not UTF-8")
    func failures() throws {
        #expect(try Self.answer("myapp://project/1") == .noRoute)
        #expect(try Self.answer("myapp://task/%zz/1") == .invalidURL(.invalidPercentEncoding(offset: 13)))
        #expect(try Self.answer("task/1") == .invalidURL(.missingScheme))
        #expect(try Self.answer("") == .invalidURL(.empty))
        let long = "myapp://task/" + String(repeating: "1", count: 5_000)
        #expect(try Self.answer(long) == .invalidURL(.urlTooLong(length: long.utf8.count, limit: 4_096)))
        let table = try RouteTable.parse(Self.text)
        let bytes: [UInt8] = Array("myapp://task/".utf8) + [0xFF, UInt8(ascii: "1")]
        #expect(bytes.withUnsafeBufferPointer { table.referenceMatch(utf8: $0) } == .invalidURL(.notUTF8(offset: 13)))
    }

    @Test("a pattern that reaches the match limit stops routing, and match fails the same way")
    func matchLimit() throws {
        var builder = RouteTableBuilder()
        builder.matchLimit = 1_000
        builder.probesBacktracking = false
        builder.addFile(text: """
        route slow
            pattern  myapp://xb/(?<a>(?:a|aa)+)b
            target   Slow
            example  myapp://xb/ab
        route other
            pattern  myapp://xb/(?<rest>.*)
            target   Other
            example  myapp://xb/y
        """, file: "slow.routes")
        let table = try builder.build()
        // A `b` in the host, so that PCRE2 cannot rule the subject out by the `b` it requires before running.
        let url = "myapp://xb/" + String(repeating: "a", count: 40)
        #expect(table.referenceMatch(url) == .matchFailed(.matchLimit))
        #expect(RoutingAnswer(table.match(url)) == .matchFailed(.matchLimit))
        #expect(table.referenceMatch("myapp://xb/aab") == Self.matched("slow", [("a", "aa")]))
    }
}
