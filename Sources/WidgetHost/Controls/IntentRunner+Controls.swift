import Foundation
import JSON

/// Performing placed controls: a toggle set to a value, a button pressed.
///
/// The control's intent goes through ``perform(_:)`` like a widget's: the same transaction, diff, dry run and
/// idempotency (the key is bound to the intent, its parameters and the control). After a committed perform the
/// control itself is reloaded at once, then every control the intent asked for through `ControlCenter.shared`. Those
/// reloads are owed in the perform's own transaction, as a tapped widget's are (``IntentRunner``, "Owed reloads"): a
/// process stopping between the commit and them runs them when a runner next starts on the container. A configurable
/// control's intent gets the control's configured values for the parameters it shares with the configuration intent.
extension IntentRunner {
    /// Sets a toggle control to `value`: its `SetValueIntent` runs with `value` set, then the control is reloaded.
    /// - Parameters:
    ///   - id: The placed control.
    ///   - value: The toggle's new state.
    ///   - idempotencyKey: A retry with the same key and value returns the first outcome without running again.
    ///   - dryRun: Run the intent and report its changes, then roll back; nothing is reloaded.
    /// - Returns: The intent's outcome and the control reloads run.
    /// - Throws: ``ControlError`` (unknown control, a button) or what ``perform(_:)`` throws; nothing changed then.
    public func performControl(id: String, value: Bool, idempotencyKey: String? = nil,
                               dryRun: Bool = false) async throws -> ControlOutcome {
        try await performControl(id: id, style: .toggle, parameters: ["value": .bool(value)],
                                 idempotencyKey: idempotencyKey, dryRun: dryRun)
    }

    /// Presses a button control: its intent runs, then the control is reloaded.
    /// - Parameters:
    ///   - id: The placed control.
    ///   - idempotencyKey: A retry with the same key returns the first outcome without running again.
    ///   - dryRun: Run the intent and report its changes, then roll back; nothing is reloaded.
    /// - Returns: The intent's outcome and the control reloads run.
    /// - Throws: ``ControlError`` (unknown control, a toggle) or what ``perform(_:)`` throws; nothing changed then.
    public func pressControl(id: String, idempotencyKey: String? = nil,
                             dryRun: Bool = false) async throws -> ControlOutcome {
        try await performControl(id: id, style: .button, parameters: [:], idempotencyKey: idempotencyKey,
                                 dryRun: dryRun)
    }

    private func performControl(id: String, style: ControlKindDescriptor.Style, parameters: [String: JSONValue],
                                idempotencyKey: String?, dryRun: Bool) async throws -> ControlOutcome {
        let control = try await engine.control(id: id)
        guard let descriptor = engine.controlCatalog.descriptor(kind: control.kind) else {
            throw ControlError.unknownKind(control.kind)
        }
        guard descriptor.style == style else { throw ControlError.wrongStyle(kind: control.kind, style: descriptor.style) }
        let parameters = engine.controlIntentParameters(control, descriptor, adding: parameters)
        // No instanceID: the runner's tapped instance is a widget. The control is owed its own reload instead.
        let outcome = try await perform(PerformRequest(intentName: descriptor.intentName, parameters: parameters,
                                                       controlID: id, idempotencyKey: idempotencyKey,
                                                       isDryRun: dryRun))
        return ControlOutcome(controlID: id, intent: outcome, reloads: outcome.controlReloads)
    }
}
