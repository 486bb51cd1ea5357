import Foundation
import JSON
import SharedState
import WidgetKit

/// One widget to place in a batch.
public struct WidgetPlacement: Sendable, Hashable, Codable {
    /// The instance id; a new UUID when nil.
    public var id: String?
    /// A registered kind.
    public var kind: String
    /// One of the kind's families.
    public var family: WidgetFamily
    /// Raw parameter values.
    public var parameters: [String: JSONValue]

    /// Creates a placement.
    public init(id: String? = nil, kind: String, family: WidgetFamily, parameters: [String: JSONValue] = [:]) {
        self.id = id
        self.kind = kind
        self.family = family
        self.parameters = parameters
    }
}

/// A reload on the schedule: which instance, when, why (the schedule is its configuration's, shared by every
/// instance holding it).
public struct UpcomingReload: Sendable, Hashable, Codable {
    /// The instance.
    public var instanceID: String
    /// Its configuration.
    public var configurationKey: String
    /// When, why, and whether the budget pushed it back.
    public var reload: ScheduledReload
}

extension WidgetEngine {
    /// Places many widgets at once (a host syncing a device's home screen): each distinct raw configuration is
    /// resolved once, all instances are stored in one transaction, and each new configuration's provider runs once.
    /// - Returns: The placed instance ids, in order.
    /// - Throws: ``EngineError`` for the first bad placement; then nothing is stored.
    @discardableResult
    public func place(_ placements: [WidgetPlacement]) async throws -> [String] {
        var resolutions: [String: ResolvedParameters] = [:]
        var instances: [WidgetInstance] = []
        let now = clock.now
        for placement in placements {
            let descriptor = try descriptor(kind: placement.kind)
            try Self.check(placement.family, supportedBy: descriptor)
            let rawKey = JSONValue.array([.string(placement.kind), .object(placement.parameters)]).canonicalText
            let resolved: ResolvedParameters
            if let known = resolutions[rawKey] {
                resolved = known
            } else {
                let kind = placement.kind
                let parameters = placement.parameters
                resolved = try await withUserCode { try await descriptor.source.resolve(parameters, kind: kind) }
                resolutions[rawKey] = resolved
            }
            instances.append(WidgetInstance(
                id: placement.id ?? UUID().uuidString.lowercased(), kind: placement.kind,
                family: placement.family.rawValue, rawParameters: placement.parameters,
                configurationKey: Self.configurationKey(kind: placement.kind, family: placement.family.rawValue,
                                                        parameters: resolved.parameters),
                placedAt: now, updatedAt: now, resolutionDiagnostics: resolved.diagnostics))
        }
        let placed = instances
        let needTimelines = try store.write { db -> [String] in
            // A configuration that already has a timeline keeps it, with its schedule and budget.
            var seen = Set<String>()
            var missing: [String] = []
            for instance in placed {
                guard try store.instance(id: instance.id, db) == nil else {
                    throw EngineError.duplicateInstance(instance.id)
                }
                let key = instance.configurationKey
                if seen.insert(key).inserted {
                    try store.insertConfigurationIfMissing(
                        key: key, kind: instance.kind, family: instance.family,
                        parameters: Self.parameters(fromKey: key), diagnostics: instance.resolutionDiagnostics, db)
                    if try store.configuration(key: key, db)?.timeline == nil { missing.append(key) }
                }
                try store.insert(instance, db)
            }
            return missing
        }
        for key in needTimelines {
            _ = try await rebuild(configurationKey: key, reason: .configurationChanged)
        }
        return placed.map(\.id)
    }

    /// Reloads scheduled at or before `time`, earliest first (then by configuration and instance id), read from the
    /// schedule index: one per instance of each due configuration.
    /// - Parameters:
    ///   - time: The horizon.
    ///   - limit: At most this many.
    public func upcomingReloads(through time: Date, limit: Int = 100) throws -> [UpcomingReload] {
        try store.read { db in
            try store.dueReloads(through: time, limit: limit, db).map {
                UpcomingReload(instanceID: $0.instanceID, configurationKey: $0.configurationKey, reload: $0.reload)
            }
        }
    }

    /// The resolved parameters inside a configuration key (the key is their canonical JSON).
    static func parameters(fromKey key: String) -> [String: JSONValue] {
        guard case .array(let parts) = try? JSONValue(parsing: key), parts.count == 3,
              case .object(let parameters) = parts[2] else {
            preconditionFailure("configuration keys are built by configurationKey(kind:family:parameters:)")
        }
        return parameters
    }
}
