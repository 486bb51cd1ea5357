import Foundation
import JSON

/// One read of a placed control's value through its provider: when, why and what it read.
public struct ControlReload: Sendable, Hashable, Codable {
    /// Why a control's value was read again.
    public enum Reason: String, Sendable, Hashable, Codable {
        /// The control was placed.
        case placed
        /// The control itself was performed (toggled or pressed): reloaded at once, as iOS does.
        case performed
        /// `ControlCenter.shared.reloadControls(ofKind:)` asked for its kind.
        case kindReload = "kind_reload"
        /// `ControlCenter.shared.reloadAllControls()` asked for every control.
        case allReload = "all_reload"
        /// A control push (`apns-push-type: controls`) reached the device.
        case controlPush = "control_push"
    }

    /// The placed control.
    public var instanceID: String
    /// Its kind.
    public var kind: String
    /// Why it was read.
    public var reason: Reason
    /// When, on the engine's clock.
    public var ranAt: Date
    /// The value read; nil for a button or a failed read.
    public var value: JSONValue?
    /// The provider's error, when the read failed.
    public var failure: String?
}
