import Foundation
import HostBridge
import SharedState
import WidgetKit

/// What `WidgetCenter.shared` and `UserDefaults(suiteName:)` reach while the engine runs user code.
///
/// Reload requests are collected, not run on the spot: the engine applies them (budgeted) once the provider or
/// intent that made them has returned, so a provider that asks to reload its own kind cannot recurse.
final class EngineBinding: WidgetCenterHost {
    typealias ReloadRequest = ReloadRequestLog.Request

    private let requests = ReloadRequestLog()
    /// Donations and relevant intents made by the user code, stored by the engine afterwards.
    let relevanceSignals = RelevanceSignals()
    private let suites: [String: SuiteDefaults]
    private let configurations: @Sendable () async throws -> [WidgetInfo]

    init(containers: [AppGroupContainer], configurations: @escaping @Sendable () async throws -> [WidgetInfo]) {
        var suites: [String: SuiteDefaults] = [:]
        for container in containers { suites[container.identifier] = SuiteDefaults(suite: container.suite()) }
        self.suites = suites
        self.configurations = configurations
    }

    func reloadTimelines(ofKind kind: String) {
        requests.append(.kind(kind))
    }

    func reloadAllTimelines() {
        requests.append(.all)
    }

    func currentConfigurations() async throws -> [WidgetInfo] {
        try await configurations()
    }

    func defaults(suiteName: String) -> (any DefaultsStorage)? {
        suites[suiteName]
    }

    /// The requests made so far, in order, without repeats; clears them.
    func takeRequests() -> [ReloadRequest] {
        requests.take()
    }
}

/// A container's standard suite as `UserDefaults(suiteName:)` storage.
struct SuiteDefaults: DefaultsStorage {
    let suite: DefaultsSuite

    func object(forKey key: String) -> Any? { suite.object(forKey: key) }
    func set(_ value: Any, forKey key: String) { suite.set(value, forKey: key) }
    func removeObject(forKey key: String) { suite.removeObject(forKey: key) }
    func dictionaryRepresentation() -> [String: Any] { suite.dictionaryRepresentation() }
}
