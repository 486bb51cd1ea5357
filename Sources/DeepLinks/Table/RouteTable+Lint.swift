/// The findings of `RouteTable.lint()`.
public struct LintReport: Sendable, CustomStringConvertible {
    /// Every finding, sorted by location.
    public let diagnostics: [RouteDiagnostic]
    /// Routes that none of the table's examples reaches.
    public let unreachedRoutes: [String]

    /// Whether any finding is an error (the lint command then exits non-zero).
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    public var description: String {
        var lines = diagnostics.map(\.description)
        if !unreachedRoutes.isEmpty { lines.append("routes no example reaches: " + unreachedRoutes.joined(separator: ", ")) }
        let errors = diagnostics.filter { $0.severity == .error }.count
        lines.append("\(errors) error(s), \(diagnostics.count - errors) warning(s)")
        return lines.joined(separator: "\n")
    }
}

extension RouteTable {
    /// Checks the table against its own examples and its tap constraints.
    ///
    /// - Every example must reach its own route. If an earlier route takes it, the finding names
    ///   that route (`example-shadowed`); if the route's own pattern or query rules refuse it, the
    ///   finding says why (`example-mismatch`).
    /// - Routes that no example reaches are listed.
    /// - A route that accepts only `Link` taps but names families that cannot show a `Link`
    ///   (small and accessory widgets) is an error: those taps always arrive as `widgetURL`.
    /// - A route whose pattern cannot be turned back into a URL gets a warning.
    public func lint() -> LintReport {
        var diagnostics = warnings
        var reached: Set<String> = []
        for route in routes {
            for (example, location) in zip(route.definition.examples, route.definition.exampleLocations) {
                let outcome = match(example)
                if case let .success(result) = outcome { reached.insert(result.routeName) }
                if case let .success(result) = outcome, result.routeName == route.name { continue }
                let explanation = explain(example)
                let own = explanation.candidates.first { $0.routeName == route.name }
                let elsewhere: String = switch outcome {
                case let .success(result): "it reaches `\(result.routeName)`"
                case let .failure(failure): "\(failure)"
                }
                if case let .shadowed(winner)? = own?.outcome {
                    let shadowing = self.route(named: winner)!.definition
                    diagnostics.append(.init(.error, .exampleShadowed, at: location,
                        "example \(example) of route `\(route.name)` is taken by earlier route `\(winner)` (\(shadowing.location))"))
                } else {
                    let why = own.map { "\($0.outcome)" } ?? "the dispatch step never considers the route (its literal prefix differs)"
                    diagnostics.append(.init(.error, .exampleMismatch, at: location,
                        "example \(example) does not match route `\(route.name)`: \(why); \(elsewhere)"))
                }
            }
            checkLinkFamilies(route, into: &diagnostics)
            if route.template == nil {
                diagnostics.append(.init(.warning, .notReversible, at: route.definition.patternLocation,
                    "route `\(route.name)` cannot build URLs: its pattern has constructs besides literal text, named groups and optional parts"))
            }
        }
        let unreached = routes.map(\.name).filter { !reached.contains($0) }
        for name in unreached {
            diagnostics.append(.init(.warning, .unreachedRoute, at: route(named: name)!.definition.location,
                                     "no example reaches route `\(name)`"))
        }
        return LintReport(diagnostics: diagnostics.sorted { $0.location < $1.location }, unreachedRoutes: unreached)
    }

    private func checkLinkFamilies(_ route: Route, into diagnostics: inout [RouteDiagnostic]) {
        let definition = route.definition
        guard definition.sources == [.link] else { return }
        for family in definition.families where !family.canShowLink {
            diagnostics.append(.init(.error, .linkOnUnsupportedFamily, at: definition.location,
                "route `\(route.name)` accepts only Link taps, but \(family.rawValue) cannot show a Link: its taps arrive through widgetURL"))
        }
    }
}
