import Foundation

/// The immutable routes of a server: a segment trie resolving a method and path to a route.
///
/// Resolution walks one trie level per path segment (a dictionary look-up for literals, then the
/// parameter branch), backtracking from a literal branch to the parameter branch when the literal one
/// leads nowhere. Literal segments therefore win over parameters (`/v1/kinds/search` before
/// `/v1/kinds/{id}`). No per-route scan. A path written exactly as a route template without parameters
/// (`/v1/routes/match`) is found with one look-up of the whole path, to the node the walk would reach.
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
    /// The nodes with routes whose paths have no parameter, by their path as a client writes it (`/v1/routes/match`):
    /// a request for exactly that path is resolved with one look-up, without splitting it. Any other spelling of it
    /// (an escape, a doubled or trailing slash) walks the trie, which answers the same.
    private let literalPaths: [String: EndpointNode]
    /// Bit `n` set when a literal path is `n` bytes long (below 64): a path of another length, such as one with a
    /// parameter, skips the look-up and the hashing of its text.
    private let literalPathLengths: UInt64

    /// Every route, in registration order.
    public let routes: [Endpoint]

    init(routes: [Endpoint]) {
        self.routes = routes
        let builder = EndpointNode.Builder()
        for route in routes {
            builder.insert(route, segments: route.template.segments[...])
        }
        root = builder.freeze()
        var literalPaths: [String: EndpointNode] = [:]
        root.forEachLiteralPath { path, node in literalPaths[path] = node }
        self.literalPaths = literalPaths
        literalPathLengths = literalPaths.keys.reduce(0) { bits, path in
            path.utf8.count < 64 ? bits | 1 << UInt64(path.utf8.count) : bits
        }
    }

    /// Resolves a request.
    /// - Parameters:
    ///   - method: The request method. `HEAD` falls back to the `GET` route.
    ///   - path: The raw (percent-encoded) path without the query string.
    public func resolve(_ method: HTTPMethod, path: String) -> Match {
        let length = path.utf8.count
        if length >= 64 || literalPathLengths & 1 << UInt64(length) != 0, let node = literalPaths[path] {
            return Self.resolve(method, at: node, captures: [])
        }
        guard let segments = Self.segments(of: path) else { return .notFound }
        var captures: [String] = []
        captures.reserveCapacity(4)
        guard let node = root.find(segments[...], captures: &captures) else { return .notFound }
        return Self.resolve(method, at: node, captures: captures)
    }

    /// The route of `node` for `method`, with the path's captures as its parameters.
    private static func resolve(_ method: HTTPMethod, at node: EndpointNode, captures: [String]) -> Match {
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

    /// Calls `body` with each node that has routes and is reached by literal segments only, and its path
    /// (`/` and the segments joined by `/`).
    func forEachLiteralPath(under prefix: String = "", _ body: (String, EndpointNode) -> Void) {
        if !routes.isEmpty { body(prefix.isEmpty ? "/" : prefix, self) }
        for (segment, node) in literals { node.forEachLiteralPath(under: prefix + "/" + segment, body) }
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
