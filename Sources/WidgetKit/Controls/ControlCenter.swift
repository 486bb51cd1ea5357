/// The app's handle on its placed controls (Control Center, Lock Screen, Action button): ask for reloads, list them.
///
/// Calls go to the host bound to the current task (``HostContext/current``) when it conforms to
/// ``ControlCenterHost``. With no such host, reloads do nothing and ``currentControls()`` returns an empty array,
/// like an app with no placed controls (as ``WidgetCenter`` does unbound).
///
/// Mirrors [ControlCenter](https://developer.apple.com/documentation/widgetkit/controlcenter).
public final class ControlCenter: Sendable {
    /// The control center.
    public static let shared = ControlCenter()

    private init() {}

    private var host: (any ControlCenterHost)? {
        HostContext.current as? any ControlCenterHost
    }

    /// Asks for the value of every placed control of `kind` to be read again.
    public func reloadControls(ofKind kind: String) {
        host?.reloadControls(ofKind: kind)
    }

    /// Asks for the value of every placed control to be read again.
    public func reloadAllControls() {
        host?.reloadAllControls()
    }

    /// Returns the placed controls and their configurations.
    public func currentControls() async throws -> [ControlInfo] {
        guard let host else { return [] }
        return try await host.currentControls()
    }
}
