import CPCRE2
import Foundation

/// Collects route definitions (from files or code) and builds an immutable `RouteTable`,
/// reporting every problem of every file at once.
///
/// Build mutable, freeze immutable: `build()` validates and compiles everything, and either returns
/// a table or throws a `RouteLoadError` listing all diagnostics; it never returns a partial table.
public struct RouteTableBuilder: Sendable {
    /// How URLs (and examples) are canonicalized.
    public var canonicalizer = URLCanonicalizer()
    /// PCRE2's match limit for every match (see `pcre2_set_match_limit`).
    public var matchLimit: UInt32 = 1_000_000
    /// The most routes combined into one alternation.
    public var maxRoutesPerChunk = 24
    /// Whether to probe every pattern with adversarial inputs and refuse those that hit the match limit.
    public var probesBacktracking = true

    private var definitions: [RouteDefinition] = []
    private var diagnostics: [RouteDiagnostic] = []

    /// Creates an empty builder.
    public init() {}

    /// Adds routes defined in code, after those already added.
    public mutating func add(_ routes: [RouteDefinition]) { definitions += routes }

    /// Parses `text` as a `.routes` file named `file` and adds its routes.
    public mutating func addFile(text: String, file: String) {
        let parsed = RouteFileParser(file: file).parse(text)
        definitions += parsed.routes
        diagnostics += parsed.diagnostics
    }

    /// Reads and adds the file at `path`; an unreadable file becomes a diagnostic.
    public mutating func addFile(at path: String) {
        do {
            addFile(text: try String(contentsOfFile: path, encoding: .utf8), file: path)
        } catch {
            diagnostics.append(.init(.error, .io, at: SourceLocation(file: path, line: 1, column: 1),
                                     "cannot read route file: \(error.localizedDescription)"))
        }
    }

    /// Adds every `*.routes` file of `directory`, in file-name order; a directory that cannot be read or
    /// holds no such file is an error (`io`) at `directory:1:1`.
    public mutating func addDirectory(at directory: String) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".routes") }.sorted()
        } catch {
            diagnostics.append(.init(.error, .io, at: SourceLocation(file: directory, line: 1, column: 1),
                                     "cannot read route directory: \(error.localizedDescription)"))
            return
        }
        guard !names.isEmpty else {
            // Most likely a wrong path or files moved away: a running process would otherwise swap in a table
            // that routes nothing.
            diagnostics.append(.init(.error, .io, at: SourceLocation(file: directory, line: 1, column: 1),
                                     "no `*.routes` file in route directory"))
            return
        }
        for name in names { addFile(at: (directory as NSString).appendingPathComponent(name)) }
    }

    /// Validates and compiles everything added.
    /// - Throws: `RouteLoadError` with every error and warning, sorted by location, when any error is found.
    public func build() throws(RouteLoadError) -> RouteTable {
        var diagnostics = self.diagnostics
        let limits = MatchLimits(matchLimit: matchLimit)

        var firstByName: [String: RouteDefinition] = [:]
        var unique: [RouteDefinition] = []
        for definition in definitions {
            if let first = firstByName[definition.name] {
                diagnostics.append(.init(.error, .duplicateRoute, at: definition.location,
                                         "duplicate route name `\(definition.name)` (first defined at \(first.location))"))
                continue
            }
            firstByName[definition.name] = definition
            unique.append(definition)
        }

        // Explicit priority first (higher wins), then the order the routes were added in.
        let ordered = unique.enumerated().sorted { lhs, rhs in
            lhs.element.priority != rhs.element.priority ? lhs.element.priority > rhs.element.priority : lhs.offset < rhs.offset
        }.map(\.element)

        let probe = probesBacktracking ? BacktrackingProbe(canonicalizer: canonicalizer) : nil
        var routes: [Route] = []
        for definition in ordered {
            guard let route = compile(definition, order: routes.count, limits: limits, probe: probe, diagnostics: &diagnostics)
            else { continue }
            routes.append(route)
        }
        if diagnostics.contains(where: { $0.severity == .error }) {
            throw RouteLoadError(diagnostics: diagnostics.sorted { $0.location < $1.location })
        }

        let dispatch: Dispatch
        do {
            dispatch = try makeDispatch(routes)
        } catch {
            let location = routes.first?.definition.location ?? SourceLocation(file: "<table>", line: 1, column: 1)
            throw RouteLoadError(diagnostics: [.init(.error, .badPattern, at: location, "combining routes failed: \(error)")])
        }
        return RouteTable(routes: routes, canonicalizer: canonicalizer, limits: limits, candidateSets: dispatch.candidateSets,
                          dispatch: dispatch.keys, segmentCounts: dispatch.segmentCounts, warnings: diagnostics.sorted { $0.location < $1.location })
    }

    /// Compiles and checks one route; problems go to `diagnostics`.
    private func compile(_ definition: RouteDefinition, order: Int, limits: MatchLimits, probe: BacktrackingProbe?,
                         diagnostics: inout [RouteDiagnostic]) -> Route? {
        let at = definition.patternLocation
        var ok = true
        if let (offset, reason) = PatternScanner.unsupportedConstruct(definition.pattern) {
            diagnostics.append(.init(.error, .unsupportedPattern, at: at.advanced(by: offset), reason))
            ok = false
        }
        let queryNames = Set(definition.queryRules.map(\.name))
        for group in PatternScanner.namedGroups(definition.pattern) {
            if group.name.hasPrefix("_") {
                diagnostics.append(.init(.error, .invalidGroupName, at: at.advanced(by: group.offset),
                                         "invalid group name `\(group.name)`: names starting with `_` are reserved"))
                ok = false
            } else if queryNames.contains(group.name) {
                diagnostics.append(.init(.error, .invalidGroupName, at: at.advanced(by: group.offset),
                                         "invalid group name `\(group.name)`: it is also a query parameter of route `\(definition.name)`"))
                ok = false
            }
        }
        let pattern: CompiledPattern
        do {
            pattern = try CompiledPattern(definition.pattern, options: CompiledPattern.routeOptions | PCRE2_ENDANCHORED)
        } catch {
            diagnostics.append(.init(.error, .badPattern, at: at.advanced(by: error.offset ?? 0), "bad pattern: \(error.message)"))
            return nil
        }
        if pattern.backReferenceMax > 0 {
            diagnostics.append(.init(.error, .unsupportedPattern, at: at, "back references are not allowed in a route pattern"))
            ok = false
        }
        var valuePatterns: [CompiledPattern?] = []
        for rule in definition.queryRules {
            guard let text = rule.valuePattern else { valuePatterns.append(nil); continue }
            do {
                valuePatterns.append(try CompiledPattern(text, options: CompiledPattern.routeOptions | PCRE2_ENDANCHORED))
            } catch {
                diagnostics.append(.init(.error, .badPattern, at: rule.valuePatternLocation.advanced(by: error.offset ?? 0),
                                         "bad value pattern for query `\(rule.name)`: \(error.message)"))
                ok = false
            }
        }
        for (example, location) in zip(definition.examples, definition.exampleLocations) {
            do { _ = try canonicalizer.canonicalize(example) } catch {
                diagnostics.append(.init(.error, .badExample, at: location, "example is not a routable URL: \(error)"))
                ok = false
            }
        }
        guard ok else { return nil }
        let route = Route(definition: definition, order: order, pattern: pattern, queryValuePatterns: valuePatterns)
        if let probe, let input = probe.failingInput(for: route, limits: limits) {
            diagnostics.append(.init(.error, .backtracking, at: at,
                                     "pattern exceeds the match limit (\(limits.matchLimit)) on \(input): catastrophic backtracking"))
            return nil
        }
        return route
    }
}
