/// A compiled route of a `RouteTable`: its definition plus what matching and building need.
public final class Route: Sendable {
    // Declared first, so that they share the object's first cache line with its reference count, which an
    // owned match writes anyway: reading `parameter("id")`, or checking query rules, of a route among
    // thousands (whose lines are rarely in cache) then waits for no other line of it.
    /// The name of group 1, the parameter read most (nil when the pattern has no groups, or group 1 is unnamed).
    let firstGroupName: String?
    /// Whether two groups share a name (`(?J)`).
    let repeatsGroupNames: Bool
    /// What checking the query rules needs, laid out for matching.
    let queryPlan: QueryRulePlan
    /// The route as written.
    public let definition: RouteDefinition
    /// Position in the table's order (priority, then file order); lower is tried first.
    public let order: Int
    /// The route's own pattern, anchored at both ends.
    let pattern: CompiledPattern
    /// Compiled value patterns, parallel to `definition.queryRules`.
    let queryValuePatterns: [CompiledPattern?]
    /// The name of each capture group, by group number - 1 (nil for an unnamed group).
    let groupNames: [String?]
    /// The reverse-routing template, or nil when the pattern has other constructs.
    let template: [PatternScanner.TemplatePiece]?
    /// The subject prefix this route is dispatched on.
    let dispatchKey: DispatchKey
    /// The pattern's literal prefix and the bytes that can follow it.
    let start: RouteStart

    init(definition: RouteDefinition, order: Int, pattern: CompiledPattern, queryValuePatterns: [CompiledPattern?]) {
        self.definition = definition
        self.order = order
        self.pattern = pattern
        self.queryValuePatterns = queryValuePatterns
        var names = [String?](repeating: nil, count: pattern.captureCount)
        for group in pattern.namedGroups { names[group.number - 1] = group.name }
        self.groupNames = names
        self.firstGroupName = names.first ?? nil
        let named = names.compactMap { $0 }
        self.repeatsGroupNames = Set(named).count < named.count
        self.template = PatternScanner.template(definition.pattern)
        let start = RouteStart(pattern: definition.pattern)
        self.start = start
        self.dispatchKey = DispatchKey(literalPrefix: start.prefix, isWholePattern: start.isLiteral)
        self.queryPlan = QueryRulePlan(zip(definition.queryRules, queryValuePatterns).map { rule, valuePattern in
            QueryCheck(name: Array(rule.name.utf8), isRequired: rule.isRequired, isRepeated: rule.isRepeated, valuePattern: valuePattern,
                       valueWords: rule.valuePattern.flatMap(PatternScanner.literalAlternatives))
        })
    }

    /// The route's name.
    @inlinable public var name: String { definition.name }
    /// What the app opens.
    @inlinable public var target: String { definition.target }
    /// The path parameter names, in pattern order.
    public var parameterNames: [String] { groupNames.compactMap { $0 } }

    /// Where path parameter `name`'s value is, as far as the names alone tell.
    enum NamedGroup {
        /// Group `index + 1` and no other is named `name`.
        case single(Int)
        /// No group is named `name`.
        case absent
        /// Groups share names: the value is the first of those named `name` that took part.
        case repeated
    }

    /// The group named `name` (a loop over the names, no closure: called from one that captures
    /// only the name, so that readers need not copy themselves into it).
    @inline(__always)
    func group(named name: String) -> NamedGroup {
        if repeatsGroupNames { return .repeated }
        // Group 1's name is kept beside the reference count: the usual read needs no other memory.
        if let first = firstGroupName, first == name { return .single(0) }
        var index = 1
        while index < groupNames.count {
            if groupNames[index] == name { return .single(index) }
            index += 1
        }
        return .absent
    }

    /// Whether a tap from `context` may use this route (its `sources` and `families` constraints).
    public func accepts(_ context: TapContext) -> Bool {
        if let source = context.source, !definition.sources.isEmpty, !definition.sources.contains(source) { return false }
        if let family = context.family, !definition.families.isEmpty, !definition.families.contains(family) { return false }
        return true
    }
}

/// The circumstances of a tap, for routes restricted by `sources` or `families`.
public struct TapContext: Sendable, Hashable {
    /// How the URL reached the app, if known.
    public var source: TapSource?
    /// The family of the widget tapped, if known.
    public var family: WidgetFamilyName?

    /// Creates a context; unknown parts are nil.
    public init(source: TapSource? = nil, family: WidgetFamilyName? = nil) {
        self.source = source
        self.family = family
    }

    /// Nothing known: constraints are not applied.
    public static var any: TapContext { TapContext() }
}
