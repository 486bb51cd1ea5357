import Foundation
import Testing
import WidgetHostServer

extension DaemonTests {
    @Suite("GET /v1/openapi.json")
    struct OpenAPIDocumentTests {
        @Test("the document describes exactly the routes the server answers")
        func pathsMatchRoutes() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let response = try await daemon.request("GET", "/v1/openapi.json")
            #expect(response.status == 200)
            #expect(response.json["openapi"] as? String == "3.1.0")
            let paths = try #require(response.json["paths"] as? [String: [String: Any]])
            var documented: Set<String> = []
            for (path, operations) in paths {
                for method in operations.keys { documented.insert("\(method.uppercased()) \(path)") }
            }
            let served = Set(daemon.daemon.server.routes.routes.map(\.name))
            #expect(documented == served)
        }

        @Test("every $ref resolves and every operation documents 401")
        func referencesResolve() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let document = try await daemon.request("GET", "/v1/openapi.json")
            let schemas = (document.json["components"] as? [String: Any])?["schemas"] as? [String: Any] ?? [:]
            var references: [String] = []
            collectReferences(document.jsonValue as Any, into: &references)
            for reference in references where reference.hasPrefix("#/components/schemas/") {
                #expect(schemas[String(reference.dropFirst("#/components/schemas/".count))] != nil, "\(reference)")
            }
            let paths = document.json["paths"] as? [String: [String: [String: Any]]] ?? [:]
            var withoutToken: [String] = []
            for (path, operations) in paths {
                for (method, operation) in operations {
                    let responses = operation["responses"] as? [String: Any] ?? [:]
                    // Only the dashboard's files are served without the token, and say so with `security: []`.
                    if let security = operation["security"] as? [Any], security.isEmpty {
                        withoutToken.append("\(method.uppercased()) \(path)")
                        #expect(responses["401"] == nil, "\(method) \(path)")
                    } else {
                        #expect(responses["401"] != nil, "\(method) \(path)")
                    }
                }
            }
            #expect(Set(withoutToken) == ["GET /", "GET /ui", "GET /ui/{file}"])
            let served = daemon.daemon.server.routes.routes.filter { !$0.requiresToken }.map(\.name)
            #expect(Set(served) == Set(withoutToken))
        }

        private func collectReferences(_ value: Any, into references: inout [String]) {
            if let object = value as? [String: Any] {
                if let reference = object["$ref"] as? String { references.append(reference) }
                for member in object.values { collectReferences(member, into: &references) }
            } else if let array = value as? [Any] {
                for element in array { collectReferences(element, into: &references) }
            }
        }
    }
}
