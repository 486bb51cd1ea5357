import AppIntents
import Foundation
import JSON
import SharedState
import WidgetKit

extension WidgetEngine {
    /// The full state of one instance at `time` (default: the clock's now).
    /// - Throws: ``EngineError/unknownInstance(_:)``.
    public func state(ofInstance id: String, at time: Date? = nil) throws -> InstanceState {
        let now = time ?? clock.now
        return try store.read { db in
            guard let instance = try store.instance(id: id, db) else { throw EngineError.unknownInstance(id) }
            guard let configuration = try store.configuration(key: instance.configurationKey, db) else {
                throw EngineError.corruptRow(column: "configuration_key", detail: "no configuration for \(id)")
            }
            // The schedule and the budget are the configuration's, shared by every instance holding it.
            let next = try store.scheduledReload(configurationKey: instance.configurationKey, db)
            let ledger = try store.ledger(configurationKey: instance.configurationKey, policy: budget, now: now, db)
            return InstanceState(
                instance: instance, resolvedParameters: configuration.parameters, timeline: configuration.timeline,
                currentEntry: configuration.timeline?.entry(at: now).entry, evaluatedAt: now, nextReload: next,
                budget: BudgetStatus(limit: budget.reloadsPerWindow, used: ledger.charges.count,
                                     remaining: ledger.remaining, window: budget.window,
                                     nextAllowedReload: ledger.nextAllowedReload(now: now)),
                providerRuns: configuration.providerRuns,
                diagnostics: diagnostics(instance, configuration, next: next, now: now))
        }
    }

    /// The entry the instance shows at `time` (default: now): the latest entry dated at or before it, or the
    /// first entry before the timeline starts.
    /// - Throws: ``EngineError/unknownInstance(_:)``, or ``EngineError/timelineRejected(kind:reason:)`` when no
    ///   timeline was ever accepted.
    public func entry(instanceID: String, at time: Date? = nil) throws -> EntrySnapshot {
        let state = try state(ofInstance: instanceID, at: time)
        guard let entry = state.currentEntry else {
            throw EngineError.timelineRejected(kind: state.instance.kind, reason: "no timeline has been accepted yet")
        }
        return entry
    }

    /// The provider runs of an instance's configuration that served it, newest first: why each ran, when, whom it
    /// charged, and whether the timeline was accepted. A reconfigured instance's history starts at its
    /// reconfiguration (its timeline is a new one).
    /// - Parameters:
    ///   - id: The instance.
    ///   - limit: The most runs returned.
    /// - Throws: ``EngineError/unknownInstance(_:)``.
    public func reloads(ofInstance id: String, limit: Int) throws -> [ReloadRecord] {
        try store.read { db in
            guard let instance = try store.instance(id: id, db) else { throw EngineError.unknownInstance(id) }
            return try store.reloadLog(of: instance, limit: limit, db)
        }
    }

    /// The doctor's findings for an instance.
    public func diagnostics(instanceID: String) throws -> [TimelineDiagnostic] {
        try state(ofInstance: instanceID).diagnostics
    }

    private func diagnostics(_ instance: WidgetInstance, _ configuration: ConfigurationRecord,
                             next: ScheduledReload?, now: Date) -> [TimelineDiagnostic] {
        var findings = instance.resolutionDiagnostics
        findings += configuration.resolutionDiagnostics.filter { !findings.contains($0) }
        if let failure = configuration.lastFailure {
            findings.append(TimelineDiagnostic(
                code: .timelineRejected, severity: .error,
                message: "The provider's last timeline was refused (\(failure)); the previous one is still shown."))
        }
        if let next, next.deferredByBudget {
            findings.append(TimelineDiagnostic(
                code: .budgetExhausted, severity: .warning,
                message: "The reload budget of \(budget.reloadsPerWindow) per \(Int(budget.window / 3600)) hours "
                    + "is spent; the requested reload runs at \(next.dueAt.formatted(Date.ISO8601FormatStyle())).",
                date: next.dueAt))
        }
        if let timeline = configuration.timeline {
            findings += TimelineDoctor.diagnose(timeline, wasReordered: configuration.timelineWasReordered,
                                                budget: budget, now: now)
        }
        let rank: [TimelineDiagnostic.Severity: Int] = [.error: 0, .warning: 1, .info: 2]
        return findings.enumerated()
            .sorted { (rank[$0.element.severity] ?? 3, $0.offset) < (rank[$1.element.severity] ?? 3, $1.offset) }
            .map(\.element)
    }

    /// `WidgetCenter.currentConfigurations()`: every placed instance with its configured intent.
    public func currentConfigurations() async throws -> [WidgetInfo] {
        var infos: [WidgetInfo] = []
        for instance in try store.allInstances() {
            guard let descriptor = catalog.descriptor(kind: instance.kind),
                  let family = WidgetFamily(rawValue: instance.family) else { continue }
            let parameters = try store.read { db in
                try store.configuration(key: instance.configurationKey, db)?.parameters ?? [:]
            }
            let intent = await descriptor.source.configurationIntent(parameters, kind: instance.kind)
            infos.append(WidgetInfo(kind: instance.kind, family: family, id: instance.id, configurationIntent: intent))
        }
        return infos
    }

    /// The options a host can offer for one parameter of a kind: suggested entities, entities matching a search
    /// string, or enum cases. This answers "which projects can this widget show?".
    /// - Throws: ``EngineError`` for an unknown kind or parameter, or one that has no options.
    public func parameterOptions(kind: String, parameter: String, matching text: String? = nil)
        async throws -> [ParameterOption] {
        let descriptor = try descriptor(kind: kind)
        return try await withUserCode { try await descriptor.source.options(parameter: parameter, matching: text,
                                                                            kind: kind) }
    }

    /// The kind's placeholder entry for a family; never runs the timeline path.
    public func placeholder(kind: String, family: WidgetFamily) throws -> EntrySnapshot {
        let descriptor = try descriptor(kind: kind)
        try Self.check(family, supportedBy: descriptor)
        let context = TimelineProviderContext(family: family, isPreview: true, displaySize: family.typicalDisplaySize)
        return descriptor.source.placeholder(context: context)
    }

    /// The kind's snapshot entry (the widget gallery's preview, `isPreview` true); never runs the timeline path
    /// and stores nothing.
    public func snapshot(kind: String, family: WidgetFamily, parameters: [String: JSONValue] = [:])
        async throws -> EntrySnapshot {
        let descriptor = try descriptor(kind: kind)
        try Self.check(family, supportedBy: descriptor)
        let context = TimelineProviderContext(family: family, isPreview: true, displaySize: family.typicalDisplaySize)
        return try await withUserCode {
            let resolved = try await descriptor.source.resolve(parameters, kind: kind)
            return try await descriptor.source.snapshot(resolved.parameters, kind: kind, context: context)
        }
    }
}
