import Foundation
import HostBridge
import SharedState
import WidgetKit

/// What `WidgetCenter.shared` and `UserDefaults(suiteName:)` reach while one intent performs.
///
/// The perform's own App Group is served inside its transaction (``TransactionDefaults``); other groups the engine
/// knows are readable but refuse writes; reload requests are collected and applied after the commit (budgeted).
final class PerformBinding: WidgetCenterHost {
    private let requests = ReloadRequestLog()
    /// Donations and relevant intents made by the intent, stored by the engine after a successful perform.
    let relevanceSignals = RelevanceSignals()
    private let ownGroup: String
    private let own: TransactionDefaults
    private let others: [String: OutsideTransactionDefaults]
    private let configurations: @Sendable () async throws -> [WidgetInfo]

    init(transaction: IntentTransaction, otherContainers: [AppGroupContainer], intentName: String,
         failures: PerformFailures, configurations: @escaping @Sendable () async throws -> [WidgetInfo]) {
        ownGroup = transaction.container.identifier
        own = TransactionDefaults(transaction: transaction, suite: transaction.container.suite(), failures: failures)
        var others: [String: OutsideTransactionDefaults] = [:]
        for container in otherContainers where container.identifier != ownGroup {
            others[container.identifier] = OutsideTransactionDefaults(suite: container.suite(), intentName: intentName,
                                                                      failures: failures)
        }
        self.others = others
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
        suiteName == ownGroup ? own : others[suiteName]
    }

    /// The requests made, in order, without repeats.
    var reloadRequests: [EngineBinding.ReloadRequest] {
        requests.requestsMade
    }
}
