import Foundation
import JSON
import Push

/// Control pushes, received as the device receives them: `{"aps":{"content-changed":true}}` with
/// `apns-push-type: controls` and `apns-topic: <bundle id>.push-type.controls`.
///
/// WidgetHost's device has one push token for its widgets and controls (``widgetPushToken()``, renewed by
/// ``renewWidgetPushToken()``): a control push is addressed to it, as a widget push is. Apple documents a control
/// push as making the system ask the app's controls for their values again; WidgetHost reads every placed control
/// again (reason ``ControlReload/Reason/controlPush``), unbudgeted like every control reload.
extension WidgetEngine {
    /// Applies a control push.
    /// - Returns: `.applied` with the control reloads it ran, or `.ignored` with the reason (a token the device
    ///   never issued, a payload without `content-changed: true`); an ignored push changes nothing.
    /// - Throws: ``DevicePushError`` for what APNs itself would refuse (push type, topic, priority, size, not JSON).
    public func receiveControlPush(_ push: DevicePush) async throws -> ControlPushDelivery {
        if let ignored = try await contentChangedPushIgnored(push, type: "controls"),
           case .ignored(let reason, let detail) = ignored {
            return .ignored(reason: reason, detail: detail)
        }
        return .applied(reloads: try await reloadControls(try placedControls(), reason: .controlPush))
    }
}

/// What the device did with a control push.
public enum ControlPushDelivery: Sendable {
    /// Every placed control read its value again: the reloads made.
    case applied(reloads: [ControlReload])
    /// Nothing was reloaded, for this reason.
    case ignored(reason: WidgetPushDelivery.Reason, detail: String)
}
