import Foundation

/// The immutable routes of a server: a segment trie resolving a method and path to a route.
///
/// Resolution walks one trie level per path segment (a dictionary look-up for literals, then the
/// parameter branch), backtracking from a literal branch to the parameter branch when the literal one
/// leads nowhere. Literal segments therefore win over parameters (`/v1/kinds/search` before
/// `/v1/kinds/{id}`). No per-route scan.
public final class EndpointTable: Sendable {
    /// The outcome of resolving a request.
    public enum Match: Sendable {
        /// A route answers; `parameters` holds its captures.
        case found(Endpoint, PathParameters)
        /// The path exists, but not for this method; `allowed` lists the methods that are.
        case methodNotAllowed(allowed: [HTTPMethod])
        /// No route has this path.
        case notFound
    }

    private let root: EndpointNode

    /// Every route, in registration order.
    public let routes: [Endpoint]

    init(routes: [Endpoint]) {
        self.routes = routes
        let builder = EndpointNode.Builder()
        for route in routes {
            builder.insert(route, segments: route.template.segments[...])
        }
        root = builder.freeze()
    }

    /// Resolves a request.
    /// - Parameters:
    ///   - method: The request method. `HEAD` falls back to the `GET` route.
    ///   - path: The raw (percent-encoded) path without the query string.
    public func resolve(_ method: HTTPMethod, path: String) -> Match {
        guard let segments = Self.segments(of: path) else { return .notFound }
        var captures: [String] = []
        captures.reserveCapacity(4)
        guard let node = root.find(segments[...], captures: &captures) else { return .notFound }
        let route = node.routes[method] ?? (method == .head ? node.routes[.get] : nil)
        guard let route else {
            var allowed = Array(node.routes.keys)
            if node.routes[.get] != nil, node.routes[.head] == nil { allowed.append(.head) }
            return .methodNotAllowed(allowed: allowed.sorted { $0.rawValue < $1.rawValue })
        }
        guard !captures.isEmpty else { return .found(route, PathParameters()) }
        var parameters: [(name: String, value: String)] = []
        parameters.reserveCapacity(captures.count)
        for (name, value) in zip(route.parameterNames, captures) {
            parameters.append((name: name, value: value))
        }
        return .found(route, PathParameters(parameters))
    }

    /// The non-empty segments of a raw path, percent-decoded; nil when a segment does not decode.
    private static func segments(of path: String) -> [String]? {
        var segments: [String] = []
        segments.reserveCapacity(8)
        var path = path
        let decodable = path.withUTF8 { bytes -> Bool in
            var start = 0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: "/") {
                defer { start = end + 1 }
                guard end > start else { continue }
                let part = UnsafeBufferPointer(rebasing: bytes[start..<end])
                let text = String(decoding: part, as: UTF8.self)
                // Most segments have no escapes; Foundation's decoding is costly enough to skip for them.
                guard part.contains(UInt8(ascii: "%")) else {
                    segments.append(text)
                    continue
                }
                guard let decoded = text.removingPercentEncoding else { return false }
                segments.append(decoded)
            }
            return true
        }
        return decodable ? segments : nil
    }
}

/// One level of the route trie. Immutable once built.
final class EndpointNode: Sendable {
    let literals: [String: EndpointNode]
    let parameter: EndpointNode?
    let routes: [HTTPMethod: Endpoint]

    init(literals: [String: EndpointNode], parameter: EndpointNode?, routes: [HTTPMethod: Endpoint]) {
        self.literals = literals
        self.parameter = parameter
        self.routes = routes
    }

    /// The node whose path is `segments` and which has routes, literal branches first.
    func find(_ segments: ArraySlice<String>, captures: inout [String]) -> EndpointNode? {
        guard let segment = segments.first else { return routes.isEmpty ? nil : self }
        if let literal = literals[segment], let node = literal.find(segments.dropFirst(), captures: &captures) {
            return node
        }
        if let parameter {
            captures.append(segment)
            if let node = parameter.find(segments.dropFirst(), captures: &captures) { return node }
            captures.removeLast()
        }
        return nil
    }

    /// The mutable trie the table is built from.
    final class Builder {
        var literals: [String: Builder] = [:]
        var parameter: Builder?
        var routes: [HTTPMethod: Endpoint] = [:]

        func insert(_ route: Endpoint, segments: ArraySlice<PathTemplate.Segment>) {
            guard let segment = segments.first else {
                routes[route.method] = route
                return
            }
            let next: Builder
            switch segment {
            case .literal(let text):
                next = literals[text] ?? Builder()
                literals[text] = next
            case .parameter:
                next = parameter ?? Builder()
                parameter = next
            }
            next.insert(route, segments: segments.dropFirst())
        }

        func freeze() -> EndpointNode {
            EndpointNode(literals: literals.mapValues { $0.freeze() }, parameter: parameter?.freeze(), routes: routes)
        }
    }
}
