import ActivityKit
import Foundation
import HostBridge
import SharedState
import WidgetKit

/// What `WidgetCenter.shared`, `ControlCenter.shared` and `UserDefaults(suiteName:)` reach while the engine runs user
/// code.
///
/// One binding serves one run of user code: a provider or query the engine calls
/// (``forEngine(containers:device:activities:engine:)``) or one intent's `perform()`
/// (``forPerform(in:otherContainers:device:activities:intentName:failures:engine:)``). The two differ only in the storage
/// each App Group maps to.
///
/// Reload requests, donations and relevant intents are collected, not acted on the spot: the engine applies them
/// (reloads budgeted) once the code that made them has returned, so a provider that asks to reload its own kind
/// cannot recurse, and user code never waits on the engine's database.
final class UserCodeBinding: WidgetCenterHost, ControlCenterHost {
    typealias ReloadRequest = ReloadRequestLog.Request

    private let requests = ReloadRequestLog()
    /// `ControlCenter.shared` requests: the same shape as `WidgetCenter`'s (a kind, or all), kept apart because they
    /// reload controls, not timelines.
    private let controlRequests = ReloadRequestLog()
    /// Donations and relevant intents made by the user code, stored by the engine afterwards.
    let relevanceSignals = RelevanceSignals()
    /// How `UserDefaults(suiteName:)` reaches the App Groups: made when asked for, so that a run that reads no
    /// defaults (most providers, most performs) builds no storage.
    private enum SuiteAccess {
        /// Each suite read and written directly.
        case direct
        /// The perform's own group inside its transaction; the others readable, refusing writes.
        case perform(IntentTransaction, intentName: String, failures: PerformFailures)
    }

    private let suiteAccess: SuiteAccess
    /// What `currentConfigurations()` and `currentControls()` ask. Weak: user code may keep `WidgetCenter.shared`'s
    /// binding past its run (in a task of its own), which must not keep the engine alive; and a reference rather
    /// than two closures, which cost two allocations per run.
    private weak let engine: WidgetEngine?
    /// The App Groups whose directories `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)` answers
    /// and whose suites `UserDefaults(suiteName:)` reaches, looked up in order (a handful: no dictionary built per
    /// run); a group not here has no suite.
    private let containers: [AppGroupContainer]
    /// The engine's time when the user code was called, and the device's time zone (``HostContext/now``).
    let now: Date?
    let timeZone: TimeZone?
    /// What ActivityKit's calls reach: the engine's Live Activities, applied at once (not part of a perform's
    /// transaction, as an app's activity changes are not part of its database's).
    let activities: LiveActivities

    private init(suiteAccess: SuiteAccess, containers: [AppGroupContainer], device: HostEnvironment,
                 activities: LiveActivities, engine: WidgetEngine) {
        self.suiteAccess = suiteAccess
        self.containers = containers
        self.now = device.now
        self.timeZone = device.timeZone
        self.activities = activities
        self.engine = engine
    }

    /// A binding for a provider or query the engine runs: each container's suite, read and written directly.
    /// - Parameters:
    ///   - containers: The App Groups the engine knows.
    ///   - device: The engine's time and time zone for this call.
    ///   - activities: The engine's Live Activities.
    ///   - engine: What `currentConfigurations()` and `currentControls()` ask.
    static func forEngine(containers: [AppGroupContainer], device: HostEnvironment, activities: LiveActivities,
                          engine: WidgetEngine) -> UserCodeBinding {
        UserCodeBinding(suiteAccess: .direct, containers: containers, device: device, activities: activities,
                        engine: engine)
    }

    /// A binding for one intent's `perform()`.
    ///
    /// The perform's own App Group is served inside its transaction (``TransactionDefaults``); other groups the
    /// engine knows are readable but refuse writes (``OutsideTransactionDefaults``). Reload requests are applied
    /// after the commit (budgeted); donations and relevant intents are stored only after a successful perform
    /// that is not a dry run.
    /// - Parameters:
    ///   - transaction: The perform's transaction; its container is the perform's own group.
    ///   - otherContainers: The App Groups the engine knows (the perform's own group among them is skipped).
    ///   - device: The engine's time and time zone for this perform.
    ///   - activities: The engine's Live Activities.
    ///   - intentName: Names the intent in the error a write outside the transaction records.
    ///   - failures: Where `UserDefaults` failures are kept (it cannot throw) for the runner to fail the perform.
    ///   - engine: What `currentConfigurations()` and `currentControls()` ask.
    static func forPerform(in transaction: IntentTransaction, otherContainers: [AppGroupContainer],
                           device: HostEnvironment, activities: LiveActivities, intentName: String, failures: PerformFailures,
                           engine: WidgetEngine) -> UserCodeBinding {
        UserCodeBinding(suiteAccess: .perform(transaction, intentName: intentName, failures: failures),
                        containers: otherContainers, device: device, activities: activities, engine: engine)
    }

    func reloadTimelines(ofKind kind: String) {
        requests.append(.kind(kind))
    }

    func reloadAllTimelines() {
        requests.append(.all)
    }

    func currentConfigurations() async throws -> [WidgetInfo] {
        try await engine?.currentConfigurations() ?? []
    }

    func reloadControls(ofKind kind: String) {
        controlRequests.append(.kind(kind))
    }

    func reloadAllControls() {
        controlRequests.append(.all)
    }

    func currentControls() async throws -> [ControlInfo] {
        try await engine?.currentControls() ?? []
    }

    func defaults(suiteName: String) -> (any DefaultsStorage)? {
        switch suiteAccess {
        case .direct:
            return container(forGroup: suiteName).map { SuiteDefaults(suite: $0.suite()) }
        case .perform(let transaction, let intentName, let failures):
            if suiteName == transaction.container.identifier {
                return TransactionDefaults(transaction: transaction, suite: transaction.container.suite(),
                                           failures: failures)
            }
            return container(forGroup: suiteName).map {
                OutsideTransactionDefaults(suite: $0.suite(), intentName: intentName, failures: failures)
            }
        }
    }

    /// The group's directory; files there are the code's own, outside any perform's transaction. A directory that
    /// cannot be created answers nil, as an unentitled group does on iOS (the caller cannot do more with it).
    func containerURL(forGroup groupIdentifier: String) -> URL? {
        try? container(forGroup: groupIdentifier)?.makeDirectory()
    }

    /// The first of the binding's containers with this identifier.
    private func container(forGroup identifier: String) -> AppGroupContainer? {
        if let container = containers.first(where: { $0.identifier == identifier }) { return container }
        // A perform's own container comes after the others (kept apart rather than appended to a copy of them).
        if case .perform(let transaction, _, _) = suiteAccess, transaction.container.identifier == identifier {
            return transaction.container
        }
        return nil
    }

    /// The reload requests made so far, in order, without repeats; read once the user code has returned.
    var reloadRequests: [ReloadRequest] {
        requests.requestsMade
    }

    /// The `ControlCenter` reload requests made so far, in order, without repeats; read once the user code has
    /// returned.
    var controlReloadRequests: [ReloadRequest] {
        controlRequests.requestsMade
    }
}
