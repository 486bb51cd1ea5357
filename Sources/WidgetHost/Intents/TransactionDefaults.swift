import Foundation
import HostBridge
import SharedState
import Synchronization

/// What `UserDefaults(suiteName:)` reaches during a perform: the perform's container's suite, read and written
/// inside the perform's transaction.
///
/// `UserDefaults` cannot throw, so a failed write is kept in ``failures``; the runner fails the perform with it
/// after `perform()` returns (rolling its savepoint back), rather than committing half of what it meant to write.
struct TransactionDefaults: DefaultsStorage {
    let transaction: IntentTransaction
    let suite: DefaultsSuite
    let failures: PerformFailures

    func object(forKey key: String) -> Any? {
        attempt { try transaction.withDatabase { db in try suite.value(forKey: key, in: db) } }??.foundationValue
    }

    func set(_ value: Any, forKey key: String) {
        attempt {
            let converted = try PropertyListValue(any: value)
            try transaction.withDatabase { db in try suite.set(converted, forKey: key, in: db) }
        }
    }

    func removeObject(forKey key: String) {
        attempt { try transaction.withDatabase { db in try suite.removeObject(forKey: key, in: db) } }
    }

    func dictionaryRepresentation() -> [String: Any] {
        (attempt { try transaction.withDatabase { db in try suite.values(in: db) } } ?? [:]).mapValues(\.foundationValue)
    }

    private func attempt<T>(_ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch {
            failures.record(error)
            return nil
        }
    }
}

/// Another App Group the engine knows, seen from a perform: readable (committed data), not writable, because
/// its writes could not be part of the perform's transaction.
struct OutsideTransactionDefaults: DefaultsStorage {
    let suite: DefaultsSuite
    let intentName: String
    let failures: PerformFailures

    func object(forKey key: String) -> Any? { suite.object(forKey: key) }

    func set(_ value: Any, forKey key: String) {
        failures.record(IntentError.writeOutsideTransaction(intent: intentName, group: suite.container.identifier))
    }

    func removeObject(forKey key: String) {
        failures.record(IntentError.writeOutsideTransaction(intent: intentName, group: suite.container.identifier))
    }

    func dictionaryRepresentation() -> [String: Any] { suite.dictionaryRepresentation() }
}

/// Errors that non-throwing calls made during one perform could not throw.
final class PerformFailures: Sendable {
    private let errors = Mutex<[any Error]>([])

    func record(_ error: any Error) {
        errors.withLock { $0.append(error) }
    }

    /// The first error recorded, if any.
    var first: (any Error)? { errors.withLock { $0.first } }
}
