import Testing
@testable import DeepLinks

@Suite("Typed parameters and query values")
struct TypedValueTests {
    static let table = try! RouteTable.parse("""
        route order
            pattern  myapp://order/(?<id>[0-9a-z]+)(?:/(?<step>[^/]+))?
            target   Order
            query    page optional [0-9a-z]+
            query    tag optional repeated .+
            query    express optional (true|false)
            example  myapp://order/12?page=2
        """)

    @Test("owned and lent matches convert the same way; absent and unconvertible values are nil", arguments: [
        ("myapp://order/12?page=2&express=true&tag=1&tag=2", 12, 2, true, [1, 2]),
        ("myapp://order/12a?page=x&tag=1&tag=x", nil, nil, nil, nil),
        ("myapp://order/%31%32/shipped?tag=7", 12, nil, nil, [7]),
        ("myapp://order/99999999999999999999", nil, nil, nil, []),
    ] as [(String, Int?, Int?, Bool?, [Int]?)])
    func converts(url: String, id: Int?, page: Int?, express: Bool?, tags: [Int]?) throws {
        let match = try Self.table.match(url).get()
        #expect(match.parameter("id", as: Int.self) == id)
        #expect(match.queryValue("page", as: Int.self) == page)
        #expect(match.queryValue("express", as: Bool.self) == express)
        #expect(match.queryValues("tag", as: Int.self) == tags)
        #expect(match.parameter("step", as: String.self) == match.parameter("step"))
        #expect(match.parameter("missing", as: Int.self) == nil)
        let lent = try Self.table.withMatch(url) { view in
            (view.parameter("id", as: Int.self), view.queryValue("page", as: Int.self), view.queryValue("express", as: Bool.self),
             view.queryValues("tag", as: Int.self))
        }.get()
        #expect(lent.0 == id && lent.1 == page && lent.2 == express && lent.3 == tags)
    }

    @Test("a Double and a custom LosslessStringConvertible type")
    func otherTypes() throws {
        struct Step: LosslessStringConvertible, Equatable {
            var name: String
            init?(_ description: String) {
                guard ["packed", "shipped"].contains(description) else { return nil }
                name = description
            }
            var description: String { name }
        }
        let shipped = try Self.table.match("myapp://order/7/shipped").get()
        #expect(shipped.parameter("step", as: Step.self) == Step("shipped"))
        #expect(shipped.parameter("id", as: Double.self) == 7.0)
        #expect(try Self.table.match("myapp://order/7/lost").get().parameter("step", as: Step.self) == nil)
    }
}
