import Foundation
import Testing
@testable import DeepLinks

/// The repository's `Routes/` directory, found from this file's path.
let routesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Routes").path

@Suite("The default Routes/ table")
struct DefaultRoutesTests {
    @Test("loads and lints clean")
    func lintsClean() throws {
        let table = try RouteTable.load(directory: routesDirectory)
        let report = table.lint()
        #expect(report.diagnostics.isEmpty, "\(report)")
        #expect(report.unreachedRoutes.isEmpty)
        #expect(table.routes.count >= 11)
    }

    static let linkShapes: [(String, String, [String: String])] = [
        ("myapp://task/task-42", "task.detail", ["id": "task-42"]),
        ("myapp://project/proj-thesis", "project.detail", ["id": "proj-thesis"]),
        ("myapp://widget?kind=TaskList&source=homescreen", "widget.open", [:]),
        ("myapp://daily?image=sea+and+sky.png", "daily.image", [:]),
        ("myapp://delivery/ORD-1234", "delivery.order", ["orderId": "ORD-1234"]),
        ("https://myapp.example.com/task/task-42", "task.detail.universal", ["id": "task-42"]),
        ("https://myapp.example.com/project/proj-move", "project.detail.universal", ["id": "proj-move"]),
        ("https://myapp.example.com/widget?kind=Daily&source=stack", "widget.open.universal", [:]),
        ("https://myapp.example.com/daily?image=x.jpg", "daily.image.universal", [:]),
        ("https://myapp.example.com/delivery/ORD-1234", "delivery.order.universal", ["orderId": "ORD-1234"]),
    ]

    @Test("covers the demo link shapes", arguments: linkShapes)
    func linkShape(url: String, route: String, parameters: [String: String]) throws {
        let table = try RouteTable.load(directory: routesDirectory)
        let result = try #require(table.firstMatch(url))
        #expect(result.routeName == route)
        #expect(result.parameters == parameters)
    }

    @Test("the widget route refuses a tap without its required query")
    func widgetNeedsKind() throws {
        let table = try RouteTable.load(directory: routesDirectory)
        #expect(table.firstMatch("myapp://widget?source=homescreen") == nil)
        #expect(table.firstMatch("myapp://daily?image=x.jpg")?.queryValue("image") == "x.jpg")
    }
}
