import Foundation
import JSON
import WidgetHost

/// Controls in a harness: place them, toggle or press them as the system does, read the value they show.
///
/// ```swift
/// let harness = try WidgetHarness(catalog: DemoCatalog.make(), appGroup: DemoSchema.appGroup,
///                                 controls: DemoCatalog.makeControls())
/// try await harness.placeControl(DemoCatalog.Control.focus, id: "focus")
/// let outcome = try await harness.setControl("focus", to: true)
/// #expect(try await harness.controlValue("focus") == .bool(true))
/// ```
extension WidgetHarness {
    /// Places a control, which reads its first value.
    /// - Parameters:
    ///   - kind: A kind of the harness's control catalog.
    ///   - id: The control's identifier; a new UUID when nil.
    ///   - configuration: A configurable kind's configuration intent values (entity ids, …).
    /// - Throws: ``ControlError`` (unknown kind, duplicate id, invalid configuration); nothing is placed then.
    @discardableResult
    public func placeControl(_ kind: String, id: String? = nil,
                             configuration: [String: JSONValue] = [:]) async throws -> ControlInstance {
        await startedUp()
        return try await engine.placeControl(kind: kind, id: id, configuration: configuration)
    }

    /// Sets a toggle control to `value` as the system does when it is tapped: its intent runs in a transaction, then
    /// the control and the controls its intent asked for read their values again.
    /// - Throws: ``ControlError`` or ``IntentError``; nothing was changed then.
    @discardableResult
    public func setControl(_ id: String, to value: Bool, idempotencyKey: String? = nil,
                           dryRun: Bool = false) async throws -> ControlOutcome {
        let outcome = try await runner.performControl(id: id, value: value, idempotencyKey: idempotencyKey,
                                                      dryRun: dryRun)
        if keepsDirectory { await runner.markReloadsDone() }
        return outcome
    }

    /// Presses a button control.
    /// - Throws: ``ControlError`` or ``IntentError``; nothing was changed then.
    @discardableResult
    public func pressControl(_ id: String, idempotencyKey: String? = nil, dryRun: Bool = false) async throws
        -> ControlOutcome {
        let outcome = try await runner.pressControl(id: id, idempotencyKey: idempotencyKey, dryRun: dryRun)
        if keepsDirectory { await runner.markReloadsDone() }
        return outcome
    }

    /// The value the control shows now (a toggle's `true`/`false`; nil for a button).
    /// - Throws: ``ControlError/unknownControl(_:)``.
    public func controlValue(_ id: String) async throws -> JSONValue? {
        await startedUp()
        return try await engine.control(id: id).value
    }
}
