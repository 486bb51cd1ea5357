import Foundation
import JSON

/// A placed control and the value it shows, as last read through its provider.
public struct ControlInstance: Sendable, Hashable {
    /// The placed control's identifier.
    public var id: String
    /// Its kind.
    public var kind: String
    /// Its configuration intent's parameters, canonical (entity ids, enum raw values, ISO 8601 dates); empty for a
    /// static control.
    public var configuration: [String: JSONValue] = [:]
    /// When it was placed, on the engine's clock.
    public var placedAt: Date
    /// The value last read (a toggle's `true`/`false`); nil for a button, or when no read succeeded yet.
    public var value: JSONValue?
    /// When the value was last read (successfully or not).
    public var valueReadAt: Date?
    /// Why the last read failed; nil when it succeeded. The control keeps showing ``value`` then, as a control whose
    /// provider throws keeps its last value on iOS.
    public var lastFailure: String?
}
