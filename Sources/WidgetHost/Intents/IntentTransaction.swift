import Foundation
import SharedState

/// The write transaction an interactive intent's `perform()` runs in, for intents that change tables.
///
/// `UserDefaults(suiteName:)` for the perform's App Group already writes through this transaction. Intents that
/// keep data in tables of the container (the demo's `CompleteTaskIntent` updates `tasks`) reach the
/// transaction's connection here:
///
/// ```swift
/// func perform() async throws -> some IntentResult {
///     guard let transaction = IntentTransaction.current(forGroup: "group.com.example.tasks") else {
///         throw TasksError.notInHost
///     }
///     try transaction.withDatabase { db in
///         try db.execute("UPDATE tasks SET completed = 1 WHERE id = ?", [.text(taskID)])
///     }
///     return .result()
/// }
/// ```
///
/// Everything written here commits together with the perform, is rolled back if `perform()` throws, shows in
/// the outcome's diff, and is undone after a dry run. Reads through ``withDatabase(_:)`` see the transaction's own
/// writes; reads through the container's store (`container.store.read`) see only committed data. Do not call
/// `container.store.write` (or the `DefaultsSuite` methods that open their own transaction) for the perform's
/// container from `perform()`: they throw `SQLITE_MISUSE`, because the perform already holds the writer.
///
/// Use it from the perform's own task (not from several child tasks at once: a concurrent use throws).
public final class IntentTransaction: Sendable {
    /// The App Group container the transaction belongs to.
    public let container: AppGroupContainer
    /// True in a dry run: everything will be rolled back after `perform()` returns.
    public let isDryRun: Bool
    let session: WriteSession

    init(container: AppGroupContainer, session: WriteSession, isDryRun: Bool) {
        self.container = container
        self.session = session
        self.isDryRun = isDryRun
    }

    /// Runs synchronous database work inside the perform's transaction.
    /// - Parameter body: The work; the connection must not escape it.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw, or `SQLiteError` (`SQLITE_MISUSE` for nested or concurrent use, or after the
    ///   perform ended).
    public func withDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        try session.withDatabase(body)
    }

    /// The transaction of the perform running in the current task, if any.
    @TaskLocal public static var current: IntentTransaction?

    /// The current perform's transaction when it belongs to the container of `group`.
    /// - Parameter group: An App Group identifier.
    public static func current(forGroup group: String) -> IntentTransaction? {
        guard let current, current.container.identifier == group else { return nil }
        return current
    }
}
