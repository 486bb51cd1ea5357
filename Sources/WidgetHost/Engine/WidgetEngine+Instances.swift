import Foundation
import JSON
import SharedState
import WidgetKit

extension WidgetEngine {
    /// Places a widget: resolves its parameters, shares or builds its configuration's timeline, schedules it.
    ///
    /// Instances whose kind, family and resolved parameters are equal share one configuration: placing a second
    /// one does not run the provider again.
    /// - Parameters:
    ///   - kind: A registered kind.
    ///   - family: One of the kind's supported families.
    ///   - parameters: Raw parameter values (JSON object members).
    ///   - id: The instance id; a new UUID when nil.
    /// - Returns: The instance's state after placement (the widget push handler, if any, has been told).
    /// - Throws: ``EngineError`` (unknown kind or family, bad or unknown parameter, duplicate id); nothing is
    ///   stored then.
    @discardableResult
    public func place(kind: String, family: WidgetFamily, parameters: [String: JSONValue] = [:],
                      id: String? = nil) async throws -> InstanceState {
        let descriptor = try descriptor(kind: kind)
        try Self.check(family, supportedBy: descriptor)
        let resolved = try await withUserCode { try await descriptor.source.resolve(parameters, kind: kind) }
        let now = clock.now
        let instance = WidgetInstance(
            id: id ?? UUID().uuidString.lowercased(), kind: kind, family: family.rawValue, rawParameters: parameters,
            configurationKey: Self.configurationKey(kind: kind, family: family.rawValue, parameters: resolved.parameters),
            placedAt: now, updatedAt: now, resolutionDiagnostics: resolved.diagnostics)
        let needsTimeline = try store.write { db -> Bool in
            guard try store.instance(id: instance.id, db) == nil else {
                throw EngineError.duplicateInstance(instance.id)
            }
            try store.insertConfigurationIfMissing(key: instance.configurationKey, kind: kind, family: family.rawValue,
                                                   parameters: resolved.parameters,
                                                   diagnostics: resolved.diagnostics, db)
            try store.insert(instance, db)
            return try adoptSharedTimeline(instance, db)
        }
        if needsTimeline {
            _ = try await rebuild(configurationKey: instance.configurationKey, reason: .configurationChanged)
        }
        try await placedWidgetsChanged()
        return try state(ofInstance: instance.id)
    }

    /// Changes a placed widget's parameters (the user edited the widget).
    /// - Returns: The instance's state afterwards.
    /// - Throws: ``EngineError``; nothing changes then.
    @discardableResult
    public func update(instanceID: String, parameters: [String: JSONValue]) async throws -> InstanceState {
        var instance = try instance(id: instanceID)
        let descriptor = try descriptor(kind: instance.kind)
        let kind = instance.kind
        let resolved = try await withUserCode { try await descriptor.source.resolve(parameters, kind: kind) }
        let previousKey = instance.configurationKey
        instance.rawParameters = parameters
        instance.configurationKey = Self.configurationKey(kind: instance.kind, family: instance.family,
                                                          parameters: resolved.parameters)
        instance.updatedAt = clock.now
        instance.resolutionDiagnostics = resolved.diagnostics
        let updated = instance
        let needsTimeline = try store.write { db -> Bool in
            try store.insertConfigurationIfMissing(key: updated.configurationKey, kind: updated.kind,
                                                   family: updated.family, parameters: resolved.parameters,
                                                   diagnostics: resolved.diagnostics, db)
            try store.update(updated, db)
            try store.deleteConfigurationIfUnused(key: previousKey, db)
            return try adoptSharedTimeline(updated, db)
        }
        if needsTimeline {
            _ = try await rebuild(configurationKey: updated.configurationKey, reason: .configurationChanged)
        }
        return try state(ofInstance: instanceID)
    }

    /// Removes a placed widget, and its configuration when no other instance shares it, then tells the widget push
    /// handler, if any.
    /// - Throws: ``EngineError/unknownInstance(_:)``; what storing the push token threw (the widget is removed then).
    public func remove(instanceID: String) async throws {
        try store.write { db in
            guard let instance = try store.instance(id: instanceID, db) else {
                throw EngineError.unknownInstance(instanceID)
            }
            try store.deleteInstance(id: instanceID, db)
            try store.deleteConfigurationIfUnused(key: instance.configurationKey, db)
        }
        try await placedWidgetsChanged()
    }

    /// The placed instance with this id.
    /// - Throws: ``EngineError/unknownInstance(_:)``.
    public func instance(id: String) throws -> WidgetInstance {
        guard let instance = try store.read({ db in try store.instance(id: id, db) }) else {
            throw EngineError.unknownInstance(id)
        }
        return instance
    }

    /// Every placed instance, oldest first.
    public func instances() throws -> [WidgetInstance] {
        try store.allInstances()
    }

    /// When the instance's configuration already has a timeline, the instance shares it with the configuration's
    /// schedule and budget, and this answers false; answers true when the provider must run.
    private func adoptSharedTimeline(_ instance: WidgetInstance, _ db: Database) throws -> Bool {
        try store.configuration(key: instance.configurationKey, db)?.timeline == nil
    }

    static func check(_ family: WidgetFamily, supportedBy descriptor: WidgetKindDescriptor) throws {
        guard descriptor.supportedFamilies.contains(family) else {
            throw EngineError.unsupportedFamily(kind: descriptor.kind, family: family.rawValue,
                                                supported: descriptor.supportedFamilies.map(\.rawValue))
        }
    }
}
