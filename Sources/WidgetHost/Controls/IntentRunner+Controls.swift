import Foundation
import JSON

/// Performing placed controls: a toggle set to a value, a button pressed.
///
/// The control's intent goes through ``perform(_:)`` like a widget's: the same transaction, diff, dry run and
/// idempotency (the key is bound to the intent and its parameters, so two controls of one kind share keys). After a
/// committed perform the control itself is reloaded at once, then every control the intent asked for through
/// `ControlCenter.shared`. Those control reloads are not owed durably as widget reloads are: a process stopping
/// between the commit and them leaves the controls on their old value until their next reload.
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
        // No instanceID: the runner's tapped instance is a widget; the control's own reload is made below.
        let outcome = try await perform(PerformRequest(intentName: descriptor.intentName, parameters: parameters,
                                                       idempotencyKey: idempotencyKey, isDryRun: dryRun))
        guard !outcome.isDryRun, !outcome.isReplay else {
            return ControlOutcome(controlID: id, intent: outcome, reloads: [])
        }
        let requests = (outcome.requestedControlReloads ?? []).map(ReloadRequestLog.Request.init(label:))
        let reloads = try await engine.reloadPerformedControl(id: id, requests: requests)
        return ControlOutcome(controlID: id, intent: outcome, reloads: reloads)
    }
}

extension WidgetEngine {
    /// Reloads a performed control at once, then the controls its intent asked for (the performed one not twice).
    func reloadPerformedControl(id: String, requests: [ReloadRequestLog.Request]) async throws -> [ControlReload] {
        // Removed while its intent ran: nothing to reload, but the requested kinds still are.
        let own = try store.read { db in try store.control(id: id, db) }
        var reloads = try await reloadControls(own.map { [$0] } ?? [], reason: .performed)
        reloads += try await applyControlRequests(requests, excluding: id)
        return reloads
    }
}
