import CPCRE2

/// Why `RouteTable.url(for:parameters:query:)` could not build a URL.
public enum URLBuildError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No route has this name.
    case unknownRoute(String)
    /// The route's pattern has constructs other than literal text, named groups and optional parts.
    case notReversible(route: String)
    /// The pattern needs this parameter.
    case missingParameter(String)
    /// The route has no path parameter of this name.
    case unknownParameter(String)
    /// The value of parameter `parameter` is not one its named group's own pattern, `pattern`,
    /// takes (checked when the built URL did not route back, to say which value is wrong).
    case valueRefused(parameter: String, value: String, pattern: String)
    /// The value of query parameter `name` is not one its query rule's value pattern, `pattern`,
    /// takes (checked, as for path parameters, when the built URL did not route back).
    case queryValueRefused(name: String, value: String, pattern: String)
    /// The built URL does not route back to the same route and parameters (another route takes
    /// it, say); `reason` says what it routed to instead.
    case doesNotRouteBack(url: String, reason: String)

    public var description: String {
        switch self {
        case let .unknownRoute(name): "no route named `\(name)`"
        case let .notReversible(route): "route `\(route)` has a pattern that cannot be turned into a URL"
        case let .missingParameter(name): "missing parameter `\(name)`"
        case let .unknownParameter(name): "the route has no path parameter `\(name)`"
        case let .valueRefused(parameter, value, pattern):
            "parameter `\(parameter)`: the route's group `\(pattern)` does not take the value \"\(value)\""
        case let .queryValueRefused(name, value, pattern):
            "query parameter `\(name)`: the route's query rule `\(pattern)` does not take the value \"\(value)\""
        case let .doesNotRouteBack(url, reason): "\(url) does not route back: \(reason)"
        }
    }
}

extension RouteTable {
    /// Builds a URL for route `routeName`: the pattern's literal text with each named group replaced
    /// by its percent-encoded parameter, then the query items.
    ///
    /// The URL is checked by routing it: it must reach the same route with the same path parameters
    /// and query items, so a value the route would refuse is an error here rather than a dead link,
    /// one that names the value and the group or query rule that refuses it when one does.
    /// - Throws: `URLBuildError`.
    public func url(for routeName: String, parameters: [String: String] = [:], query: [QueryItem] = []) throws(URLBuildError) -> String {
        guard let route = route(named: routeName) else { throw .unknownRoute(routeName) }
        guard let template = route.template else { throw .notReversible(route: routeName) }
        var used: Set<String> = []
        var url = ""
        for piece in template {
            switch piece {
            case let .literal(text):
                url += PercentEncoding.encode(text, allowed: RouteTable.literalAllowed)
            case let .parameter(name, _):
                guard let value = parameters[name] else { throw .missingParameter(name) }
                used.insert(name)
                url += PercentEncoding.encode(value, allowed: PercentEncoding.pathSegmentAllowed)
            }
        }
        if let extra = parameters.keys.sorted().first(where: { !used.contains($0) }) { throw .unknownParameter(extra) }
        if !query.isEmpty { url += "?" + query.map(\.encoded).joined(separator: "&") }

        switch match(url) {
        case let .failure(failure):
            if let refused = refusedValue(route, template, parameters, query) { throw refused }
            throw .doesNotRouteBack(url: url, reason: failure.description)
        case let .success(result):
            if result.routeName != routeName || result.parameters != parameters,
               let refused = refusedValue(route, template, parameters, query) {
                throw refused
            }
            if result.routeName != routeName {
                throw .doesNotRouteBack(url: url, reason: "it reaches route `\(result.routeName)`")
            }
            if result.parameters != parameters {
                throw .doesNotRouteBack(url: url, reason: "it yields parameters \(result.parameters.sorted { $0.key < $1.key })")
            }
            if result.queryItems != query {
                throw .doesNotRouteBack(url: url, reason: "it yields query \(result.queryItems)")
            }
        }
        return url
    }

    /// The first value the route refuses on its own: a path parameter whose group's pattern does not
    /// take it, as the canonical subject holds it (decoded, but with `%` and `/` kept escaped), else a
    /// query value its rule's value pattern does not take (decoded, as matching reads it), rules in the
    /// order matching checks them. Nil when each is taken, or when a group's pattern does not compile
    /// alone (a lookbehind into the text before it, say).
    func refusedValue(_ route: Route, _ template: [PatternScanner.TemplatePiece], _ parameters: [String: String],
                      _ query: [QueryItem]) -> URLBuildError? {
        for case let .parameter(name, pattern) in template {
            guard let value = parameters[name],
                  let group = try? CompiledPattern("(?:\(pattern))", options: CompiledPattern.routeOptions | PCRE2_ENDANCHORED) else { continue }
            var subjectForm = ""
            for character in value {
                switch character {
                case "%": subjectForm += "%25"
                case "/": subjectForm += "%2F"
                default: subjectForm.append(character)
                }
            }
            if group.matches(subjectForm, context: limits) == PCRE2_ERROR_NOMATCH {
                return .valueRefused(parameter: name, value: value, pattern: pattern)
            }
        }
        for (rule, compiled) in zip(route.definition.queryRules, route.queryValuePatterns) {
            guard let pattern = rule.valuePattern, let compiled else { continue }
            // Names compare as matching compares them: as Swift strings, once decoded.
            for item in query where item.name == rule.name && compiled.matches(item.value, context: limits) == PCRE2_ERROR_NOMATCH {
                return .queryValueRefused(name: rule.name, value: item.value, pattern: pattern)
            }
        }
        return nil
    }

    /// Literal pattern text is already in subject form (`%2F` stays as written); only non-ASCII
    /// bytes, spaces and quotes are encoded.
    static let literalAllowed = ByteSet(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/%?#[]"
    )
}
