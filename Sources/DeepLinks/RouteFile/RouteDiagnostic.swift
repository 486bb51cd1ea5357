/// One problem found while loading or linting route files, reported as
/// `file:line:column: error: message [code]`.
public struct RouteDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable {
        /// The table cannot be used (load) or is wrong (lint).
        case error
        /// Worth a look; does not fail loading or lint.
        case warning
    }

    /// What kind of problem it is; stable names that scripts may match on.
    public enum Code: String, Sendable, Hashable {
        case syntax = "syntax"
        case unknownAttribute = "unknown-attribute"
        case duplicateAttribute = "duplicate-attribute"
        case missingAttribute = "missing-attribute"
        case missingExample = "missing-example"
        case duplicateRoute = "duplicate-route"
        case invalidRouteName = "invalid-route-name"
        case badPattern = "bad-pattern"
        case unsupportedPattern = "unsupported-pattern"
        case invalidGroupName = "invalid-group-name"
        case badQueryRule = "bad-query-rule"
        case badValue = "bad-value"
        case badExample = "bad-example"
        case backtracking = "catastrophic-backtracking"
        case exampleMismatch = "example-mismatch"
        case exampleShadowed = "example-shadowed"
        case unreachedRoute = "unreached-route"
        case linkOnUnsupportedFamily = "link-family"
        case notReversible = "not-reversible"
        case io = "io"
    }

    /// Where the problem is.
    public var location: SourceLocation
    /// Error or warning.
    public var severity: Severity
    /// The kind of problem.
    public var code: Code
    /// What is wrong, for people.
    public var message: String

    /// Creates a diagnostic.
    public init(_ severity: Severity, _ code: Code, at location: SourceLocation, _ message: String) {
        self.location = location
        self.severity = severity
        self.code = code
        self.message = message
    }

    public var description: String { "\(location): \(severity.rawValue): \(message) [\(code.rawValue)]" }
}

/// Loading route files failed; `diagnostics` holds every problem found, errors and warnings,
/// in file order.
public struct RouteLoadError: Error, Sendable, CustomStringConvertible {
    /// All problems found, sorted by location.
    public let diagnostics: [RouteDiagnostic]

    /// The diagnostics that are errors.
    public var errors: [RouteDiagnostic] { diagnostics.filter { $0.severity == .error } }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
