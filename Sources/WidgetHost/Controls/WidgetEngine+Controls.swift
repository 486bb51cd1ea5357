import Foundation
import JSON
import SharedState
import WidgetKit

/// Placed controls: placing and removing them, and reading their values through the app's providers.
///
/// A control's value is read with the engine bound (its provider reads `UserDefaults(suiteName:)` like any provider)
/// when it is placed, when it is performed, and when `ControlCenter.shared` asks for its kind or for all. Each read
/// is stored on the control and logged (``controlReloads()``). Control reloads are not budgeted: Apple documents no
/// budget for controls, and a control reads one value, not a timeline.
extension WidgetEngine {
    /// Places a control and reads its value.
    /// - Parameters:
    ///   - kind: A kind of ``controlCatalog``.
    ///   - id: The control's identifier; a new UUID when nil.
    ///   - configuration: For a configurable kind, its configuration intent's parameter values as JSON (see
    ///     ``checkedConfiguration(_:for:)``); empty for a static one.
    /// - Returns: The placed control with its first value (or the failure reading it).
    /// - Throws: ``ControlError/unknownKind(_:)``, ``ControlError/duplicateControl(_:)`` or
    ///   ``ControlError/invalidConfiguration(kind:parameter:problem:)``; nothing is stored then.
    @discardableResult
    public func placeControl(kind: String, id: String? = nil,
                             configuration: [String: JSONValue] = [:]) async throws -> ControlInstance {
        guard let descriptor = controlCatalog.descriptor(kind: kind) else { throw ControlError.unknownKind(kind) }
        let checked = try await checkedConfiguration(configuration, for: descriptor)
        let control = ControlInstance(id: id ?? UUID().uuidString.lowercased(), kind: kind, configuration: checked,
                                      placedAt: clock.now)
        try store.write { db in
            guard try store.control(id: control.id, db) == nil else { throw ControlError.duplicateControl(control.id) }
            try store.insertControl(control, db)
        }
        _ = try await reloadControls([control], reason: .placed)
        return try self.control(id: control.id)
    }

    /// Removes a placed control; its logged reloads stay.
    /// - Throws: ``ControlError/unknownControl(_:)``.
    public func removeControl(id: String) throws {
        try store.write { db in
            guard try store.control(id: id, db) != nil else { throw ControlError.unknownControl(id) }
            try store.deleteControl(id: id, db)
        }
    }

    /// The placed control with this identifier, with its last value.
    /// - Throws: ``ControlError/unknownControl(_:)``.
    public func control(id: String) throws -> ControlInstance {
        guard let control = try store.read({ db in try store.control(id: id, db) }) else {
            throw ControlError.unknownControl(id)
        }
        return control
    }

    /// Every placed control, oldest first.
    public func placedControls() throws -> [ControlInstance] {
        try store.read { db in try store.controls(db) }
    }

    /// Every control reload the engine ran, oldest first.
    public func controlReloads() throws -> [ControlReload] {
        try store.read { db in try store.controlReloads(db) }
    }

    /// The placed controls as `ControlCenter.shared.currentControls()` answers them: a configurable control with its
    /// configuration intent (nil when its stored values no longer bind, an entity deleted since), a static one
    /// without.
    public func currentControls() async throws -> [ControlInfo] {
        var infos: [ControlInfo] = []
        for control in try placedControls() {
            let intent = try? await configurationIntent(of: control)
            infos.append(ControlInfo(kind: control.kind, id: control.id,
                                     configurationIntent: intent as? any ControlConfigurationIntent))
        }
        return infos
    }

    /// Reloads performed controls at once, then the controls their intents asked for (a performed one not twice);
    /// a control removed since is skipped.
    func reloadPerformedControls(_ ids: [String], requests: [ReloadRequestLog.Request]) async throws -> [ControlReload] {
        let performed = try store.read { db in try ids.compactMap { try store.control(id: $0, db) } }
        var reloads = try await reloadControls(performed, reason: .performed)
        reloads += try await applyControlRequests(requests, excluding: Set(ids))
        return reloads
    }

    /// Reloads the controls `ControlCenter.shared` calls asked for, each control once, in placement order.
    /// - Parameter excluded: A control already reloaded for the same cause (a performed one).
    /// - Returns: The reloads run.
    func applyControlRequests(_ requests: [ReloadRequestLog.Request],
                              excluding excluded: Set<String> = []) async throws -> [ControlReload] {
        guard !requests.isEmpty else { return [] }
        let placed = try placedControls().filter { !excluded.contains($0.id) }
        var reasons: [String: ControlReload.Reason] = [:]
        for request in requests {
            switch request {
            case .all:
                for control in placed where reasons[control.id] == nil { reasons[control.id] = .allReload }
            case .kind(let kind):
                for control in placed where control.kind == kind && reasons[control.id] == nil {
                    reasons[control.id] = .kindReload
                }
            }
        }
        var reloads: [ControlReload] = []
        for control in placed {
            guard let reason = reasons[control.id] else { continue }
            reloads += try await reloadControls([control], reason: reason)
        }
        return reloads
    }

    /// Reads each control's value through its provider and records it; a provider that throws is recorded as a
    /// failure, and the control keeps its last value.
    func reloadControls(_ controls: [ControlInstance], reason: ControlReload.Reason) async throws -> [ControlReload] {
        var reloads: [ControlReload] = []
        for control in controls {
            guard let descriptor = controlCatalog.descriptor(kind: control.kind) else { continue }
            var reload = ControlReload(instanceID: control.id, kind: control.kind, reason: reason, ranAt: clock.now)
            if let readValue = descriptor.readValue {
                do {
                    let configuration = try await configurationIntent(of: control)
                    // The provider's own ControlCenter requests are dropped: a provider asking to reload its kind
                    // would otherwise read itself again, without end.
                    reload.value = try await withUserCode(applyingControlRequests: false) {
                        try await readValue(configuration)
                    }
                } catch {
                    reload.failure = "\(error)"
                }
            }
            let recorded = reload
            try store.write { db in try store.recordControlReload(recorded, db) }
            reloads.append(recorded)
        }
        return reloads
    }
}
