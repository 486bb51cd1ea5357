/// Why a builder refused to build a push: the field at fault and what it must be.
///
/// Builders refuse what a device would drop or APNs would refuse, so a payload that builds is one the device applies.
public struct PushBuildError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The payload member (`stale-date`, `content-state`) or header (`apns-topic`) at fault.
    public var field: String
    /// What is wrong with it.
    public var reason: String

    /// Creates an error.
    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { "\(field): \(reason)" }
}
