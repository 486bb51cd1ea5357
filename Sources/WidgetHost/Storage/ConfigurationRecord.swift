import Foundation
import JSON

/// A distinct configuration (kind, family, resolved parameters) and the timeline its provider last produced.
public struct ConfigurationRecord: Sendable, Hashable, Codable {
    /// The configuration key: kind, family and canonical resolved parameters.
    public var key: String
    /// The widget kind.
    public var kind: String
    /// The family's raw name.
    public var family: String
    /// Resolved parameter values (entity ids, enum raw values, dates as ISO 8601 text).
    public var parameters: [String: JSONValue]
    /// Findings from parameter resolution (a deleted entity, for one).
    public var resolutionDiagnostics: [TimelineDiagnostic]
    /// The last accepted timeline, nil before the first provider run succeeds.
    public var timeline: StoredTimeline?
    /// True when the validator had to sort that timeline's entries.
    public var timelineWasReordered: Bool
    /// How many times the provider has been run for this configuration.
    public var providerRuns: Int
    /// Why the last provider run was refused, if it was.
    public var lastFailure: String?
}
