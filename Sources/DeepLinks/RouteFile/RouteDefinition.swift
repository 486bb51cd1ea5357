/// One route as written in a `.routes` file, before compilation.
public struct RouteDefinition: Sendable, Hashable {
    /// The route's unique name (`task.detail`).
    public var name: String
    /// The PCRE2 pattern matched against the canonical subject (`scheme://host/path`); its named
    /// groups are the path parameters.
    public var pattern: String
    /// What the app opens, as an opaque string (`TaskDetail`, `screen://task`).
    public var target: String
    /// Rules for query parameters.
    public var queryRules: [QueryRule]
    /// Higher priority routes are tried first; equal priorities keep file order. Default 0.
    public var priority: Int
    /// The families this route is meant for; empty means any.
    public var families: [WidgetFamilyName]
    /// The tap sources this route accepts; empty means any.
    public var sources: [TapSource]
    /// URLs that must reach this route.
    public var examples: [String]
    /// Free text for people.
    public var note: String?

    /// Where the `route` line is.
    public var location: SourceLocation
    /// Where the pattern's first byte is.
    public var patternLocation: SourceLocation
    /// Where each example's first byte is, parallel to `examples`.
    public var exampleLocations: [SourceLocation]

    /// Creates a definition; locations default to `<memory>:1:1` for routes built in code.
    public init(
        name: String, pattern: String, target: String, queryRules: [QueryRule] = [], priority: Int = 0,
        families: [WidgetFamilyName] = [], sources: [TapSource] = [], examples: [String], note: String? = nil,
        location: SourceLocation = SourceLocation(file: "<memory>", line: 1, column: 1)
    ) {
        self.name = name
        self.pattern = pattern
        self.target = target
        self.queryRules = queryRules
        self.priority = priority
        self.families = families
        self.sources = sources
        self.examples = examples
        self.note = note
        self.location = location
        self.patternLocation = location
        self.exampleLocations = examples.map { _ in location }
    }
}

/// A rule for one query parameter of a route.
///
/// Written `query NAME MODE [VALUE-PATTERN]` where MODE is `required` (exactly once), `optional`
/// (at most once), `repeated` (any number of times) or `required repeated` (at least once).
/// Every value must match the whole of VALUE-PATTERN when one is given. Query parameters without a
/// rule are allowed and passed through.
public struct QueryRule: Sendable, Hashable, CustomStringConvertible {
    /// The parameter's decoded name.
    public var name: String
    /// Whether it must be present.
    public var isRequired: Bool
    /// Whether it may appear more than once.
    public var isRepeated: Bool
    /// A PCRE2 pattern every value must match entirely, or nil for any value.
    public var valuePattern: String?
    /// Where the value pattern's first byte is.
    public var valuePatternLocation: SourceLocation

    /// Creates a rule.
    public init(name: String, isRequired: Bool, isRepeated: Bool = false, valuePattern: String? = nil,
                valuePatternLocation: SourceLocation = SourceLocation(file: "<memory>", line: 1, column: 1)) {
        self.name = name
        self.isRequired = isRequired
        self.isRepeated = isRepeated
        self.valuePattern = valuePattern
        self.valuePatternLocation = valuePatternLocation
    }

    /// The mode as written in a route file.
    public var mode: String {
        switch (isRequired, isRepeated) {
        case (true, false): "required"
        case (false, false): "optional"
        case (false, true): "repeated"
        case (true, true): "required repeated"
        }
    }

    public var description: String { "\(name) \(mode)" + (valuePattern.map { " \($0)" } ?? "") }
}
