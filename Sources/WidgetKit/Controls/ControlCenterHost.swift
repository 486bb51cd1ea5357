/// A host that serves `ControlCenter.shared`; it conforms by also being the task's ``HostBinding``.
///
/// Bind it with `HostContext.withBinding(_:operation:)` around control, provider and intent code.
public protocol ControlCenterHost: HostBinding {
    /// Queues a reload of every placed control of `kind`. Must not block.
    func reloadControls(ofKind kind: String)

    /// Queues a reload of every placed control. Must not block.
    func reloadAllControls()

    /// Returns the placed controls with their configurations.
    func currentControls() async throws -> [ControlInfo]
}
