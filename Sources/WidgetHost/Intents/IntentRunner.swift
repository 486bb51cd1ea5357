import AppIntents
import Foundation
import JSON
import SharedState
import Synchronization

/// Performs interactive intents (the `Button(intent:)` / `Toggle(isOn:intent:)` path) against one App Group
/// container: transactional, diffed, durable, idempotent, and with the reloads Apple describes.
///
/// **Transaction.** Every `perform()` runs inside a write transaction of the container: `UserDefaults(suiteName:)`
/// for the container's group writes through it, and intents that keep tables reach it with
/// ``IntentTransaction/current(forGroup:)``. A `perform()` that throws changes nothing; the error names the intent.
///
/// **Group commit.** Performs that arrive while a transaction is being written wait, then run together, one after
/// another, in the next transaction (`BEGIN IMMEDIATE` on the writer; up to ``maximumBatchSize``), each inside its
/// own savepoint, so one that throws rolls back only itself. One `COMMIT` ends the transaction, and no perform is
/// acknowledged (``perform(_:)`` returns) before it returned: with the container's default `synchronous = FULL`,
/// every acknowledged perform is on disk. Sixteen concurrent taps cost a few fsyncs, not sixteen. When performs are
/// still being prepared (parameters bound) as a transaction is about to begin, it waits for them up to
/// ``groupCommitWindow``, so requests that arrived together commit together; a lone perform never waits.
///
/// The transaction runs on the task of one of the callers (leader and followers): the caller that finds no batch
/// running runs the next one, which holds its own perform; when it is committed, the caller answers the others of
/// its batch, hands the turn to the first perform still queued and returns. No task of the runner's own sits
/// between a caller and its transaction, and each perform costs its caller one suspension at most.
///
/// **Reloads.** After the commit, the tapped instance (``PerformRequest/instanceID``) is reloaded at once, exempt
/// from its budget; `WidgetCenter.shared.reloadTimelines(ofKind:)` / `reloadAllTimelines()` calls made inside
/// `perform()` become budgeted reloads of those instances (deferred when their budget is spent). Performs
/// committed together share reloads: a kind requested by several is rebuilt once. A perform is acknowledged after
/// its reloads ran (or failed: ``IntentOutcome/reloadFailure``; the perform stands).
///
/// **Owed reloads.** The perform commits in the container, the timelines live in the engine's store: a process
/// that stops between the two commits would keep the perform and lose its reloads, and the tapped widget would show
/// the state from before the tap until its next scheduled reload. So the reloads are part of the commit: a perform
/// that causes any records what it owes (table `widgethost_owed_reloads`, added to the container by the migration
/// `WidgetHost.intents.2-owed-reloads`) in its own savepoint, with its changes and its key, and the row is marked
/// done once the reloads ran: in the next batch's transaction, or in one of its own when no perform comes within
/// `markingDelay` (10 ms), so performing tap after tap costs no extra commit.
///
/// Controls are owed the same way: the performed control (``PerformRequest/controlID``), read again at once, and the
/// controls `ControlCenter.shared` calls inside `perform()` named (columns added by
/// `WidgetHost.intents.3-owed-control-reloads`); they run after the widget reloads and are reported in
/// ``IntentOutcome/controlReloads``.
///
/// What is owed is both kinds of reload: the tapped instance's (exempt), which is the promise that the widget
/// reflects the tap at once, and the budgeted `WidgetCenter` ones made inside `perform()`, because a progress
/// widget left on the old count until its next scheduled reload (an hour away, or never for `.never`) is the same
/// bug on another widget. Reloads still owed run
/// - when a runner is created on the container (a restart): it starts them at once, and every perform waits for
///   them; ``startUpReloads()`` returns their provider runs, so a host can wait for them before it serves;
/// - when a replay finds its first perform's reloads still owed and not already being run by this runner (they
///   failed, or the process stopped before them): the replay runs them, and its ``IntentOutcome/reloads`` report
///   the runs.
///
/// They run as after a commit (tapped instances exempt, requested kinds budgeted or deferred, each configuration
/// once), then are marked done. A tapped instance removed since is skipped, and its entry marked done all the same.
/// Done entries are not owed, so running them again does nothing. A process that stops after the reloads ran but
/// before they were marked done runs them again when it restarts: one more provider run, and a budgeted reload
/// charged a second time. Entries whose reloads fail stay owed until a later start-up or replay. Done entries are
/// deleted ``idempotencyRetention`` after they were done.
///
/// **Dry run.** `perform()` runs and its savepoint is rolled back: the outcome reports the diff and the reloads it
/// would cause; nothing is committed, reloaded or recorded.
///
/// **Idempotency.** A request with an ``PerformRequest/idempotencyKey`` stores its outcome under the key, in the
/// same transaction as its changes. A later request with the key returns that first outcome (marked as a replay)
/// without running the intent; it reloads nothing either, unless the first perform's reloads are still owed (see
/// above). Keys expire ``idempotencyRetention`` after their first perform (24 hours by default, on the engine's
/// clock); a request after that runs again. A key bound to another request (intent, parameters as given, instance)
/// is refused. Failed performs record nothing, so their retry runs. Dry runs neither read nor write keys.
///
/// **Parameters** are given, never resolved (Apple: widgets don't resolve parameters for app intents): JSON values
/// by parameter name, type-checked (strings, numbers, booleans, ISO 8601 dates, URLs, enum raw values); entity ids
/// looked up through the entity's query, an id it does not return being an error; missing ones from `default:`,
/// else nil when optional, else an error; names the intent does not declare are errors.
///
/// Do not perform from inside a `perform()` of the same runner: the inner request waits for the transaction the
/// outer one holds.
///
/// A runner is shared between tasks: what changes (the queue, the counts, the owed reloads that ran) is kept behind
/// one lock, held only to read or change it, never across a suspension.
public final class IntentRunner: Sendable {
    /// The engine whose widgets are reloaded and whose clock and containers performs see.
    public let engine: WidgetEngine
    /// The intents this runner can perform: those it was given and those of the engine's controls.
    public let intents: IntentCatalog
    /// The App Group container whose transaction every perform runs in.
    public let container: AppGroupContainer
    /// How long an idempotency key is kept after its first perform, in seconds.
    public let idempotencyRetention: TimeInterval

    /// The most performs sharing one transaction.
    public let maximumBatchSize: Int

    /// The default retention of idempotency keys: 24 hours.
    public static let defaultIdempotencyRetention: TimeInterval = 24 * 60 * 60
    /// The default for ``maximumBatchSize``.
    public static let defaultMaximumBatchSize = 128
    /// The longest a transaction waits for performs still being prepared: 2 ms, about half an fsync.
    public static let groupCommitWindow: Duration = .milliseconds(2)

    /// A perform bound and waiting for its transaction.
    struct QueuedPerform {
        var request: PerformRequest
        var bound: IntentParameterBinder.Bound
        /// Resumed once: with the perform's answer, or with ``Turn/lead`` when its task is to run the next batch.
        /// Unchecked (as the leader's gathering wait is): a checked continuation costs an allocation and atomic
        /// reference counting per perform, and each of these is taken off the queue, under the lock, exactly once.
        var continuation: UnsafeContinuation<Turn, Never>
        /// Tells the perform of the leading task from the others of its batch.
        var ticket: UInt64
    }

    /// What a queued perform's task is woken for.
    enum Turn {
        /// Its batch committed (or failed): this is its answer.
        case answered(Result<IntentOutcome, any Error>)
        /// No task runs batches: this one runs the next, which holds its own perform.
        case lead
    }

    /// What changes while performs come and go, behind ``scheduling``'s lock.
    struct Scheduling {
        var queue: [QueuedPerform] = []
        /// An empty list with room for a batch, which becomes ``queue`` when a batch takes the whole queue; the
        /// batch's list comes back here once answered. Two lists take turns, so taking a batch neither allocates
        /// (a batch's list is kilobytes, past the allocator's small sizes) nor copies what stays queued.
        var spareQueue: [QueuedPerform] = []
        /// Whether a task is running batches; the owed reloads they ran wait for the next batch while one is.
        var isLeading = false
        /// Performs between arrival and queueing (binding their parameters).
        var preparing = 0
        /// When the next transaction started waiting for preparing performs.
        var gatheringSince: ContinuousClock.Instant?
        /// The leading task, while it waits for preparing performs: resumed by the last of them to be queued (or to
        /// fail), by the one that fills the batch, or at the end of ``groupCommitWindow``.
        var gatherer: UnsafeContinuation<Void, Never>?
        var nextTicket: UInt64 = 0
        var statistics = Statistics()
        /// Whether performs have seen ``startUp`` end.
        var hasStartedUp = false
        /// Owed reloads that ran, to be marked done in the next batch's transaction.
        var reloadedOwed: [Int64] = []
        /// The task marking ``reloadedOwed`` done in a transaction of its own if no batch does first: waiting for
        /// ``markingDelay``, then writing.
        var ownMarking: Task<Void, Never>?

        /// Takes ``reloadedOwed``, leaving none.
        mutating func takeReloadedOwed() -> [Int64] {
            defer { reloadedOwed = [] }
            return reloadedOwed
        }

        /// Takes ``gatherer`` to be resumed, leaving none.
        mutating func takeGatherer() -> UnsafeContinuation<Void, Never>? {
            defer { gatherer = nil }
            return gatherer
        }

        /// Takes ``gatherer`` once nothing it waits for is left: no perform being prepared, or a full batch queued.
        mutating func takeReadyGatherer(maximumBatchSize: Int) -> UnsafeContinuation<Void, Never>? {
            preparing == 0 || queue.count >= maximumBatchSize ? takeGatherer() : nil
        }
    }

    let scheduling = Mutex(Scheduling())

    /// How many performs ran, and in how many transactions: performs / transactions is the group-commit factor.
    public struct Statistics: Sendable, Hashable {
        /// Performs taken into a transaction (dry runs, replays and failures included).
        public var performs = 0
        /// Transactions begun.
        public var transactions = 0
    }

    /// Counts since the runner was created.
    public var statistics: Statistics { scheduling.withLock { $0.statistics } }

    /// The run of the reloads owed when the runner was created; nil when none were.
    private let startUp: Task<OwedReloadRuns, any Error>?
    /// Owed reloads this runner is running or has run and not yet marked done.
    let claims = OwedReloadClaims()
    /// How long owed reloads that ran wait for a batch to mark them done before taking a transaction of their own:
    /// a client performing one tap after another then pays one commit per tap, not two.
    static let markingDelay: Duration = .milliseconds(10)

    /// The container tables a runner keeps: idempotency keys, then owed reloads.
    static let migrator: Migrator = {
        var migrator = Migrator()
        IdempotencyLedger.registerMigrations(in: &migrator)
        OwedReloadLedger.registerMigrations(in: &migrator)
        return migrator
    }()

    /// Creates a runner, adding its tables (idempotency keys, owed reloads) to the container if they are missing, and
    /// starts running the reloads that performs committed earlier still owe (see ``startUpReloads()``).
    /// - Parameters:
    ///   - engine: The engine to reload widgets of.
    ///   - intents: The intents to perform; the intents of the engine's controls (``WidgetEngine/controlCatalog``)
    ///     are added to them.
    ///   - container: The App Group container the intents change.
    ///   - idempotencyRetention: How long keys are kept, in seconds (positive).
    ///   - maximumBatchSize: The most performs sharing one transaction; 1 gives every perform its own transaction
    ///     (what the benchmark compares group commit with).
    /// - Throws: `SQLiteError` when the container cannot be migrated.
    public init(engine: WidgetEngine, intents: IntentCatalog, container: AppGroupContainer,
                idempotencyRetention: TimeInterval = IntentRunner.defaultIdempotencyRetention,
                maximumBatchSize: Int = IntentRunner.defaultMaximumBatchSize) throws {
        precondition(idempotencyRetention > 0 && idempotencyRetention.isFinite,
                     "idempotency retention must be a positive number of seconds")
        precondition(maximumBatchSize >= 1, "a batch holds at least one perform")
        self.maximumBatchSize = maximumBatchSize
        try Self.migrator.migrate(container.store)
        self.engine = engine
        self.intents = engine.controlCatalog.addingIntents(to: intents)
        self.container = container
        self.idempotencyRetention = idempotencyRetention
        let owed = try container.store.read { db in try OwedReloadLedger.owed(db) }
        startUp = owed.isEmpty ? nil : Task { try await Self.settle(owed, engine: engine, container: container) }
    }

    /// The reloads performs committed before this runner was created still owed (their process stopped between the
    /// commit and the reloads, or the reloads failed), which the runner started running when it was created.
    ///
    /// Performs wait for them first. Await this before reading widgets through the engine directly (the daemon does
    /// before it serves, the test harness before each call) so that no tapped widget is seen on its old state.
    /// - Returns: The provider runs made; empty when nothing was owed. The same on every call.
    /// - Throws: What running them threw; they stay owed then (a later start-up, or a replay of their key, runs
    ///   them again).
    public func startUpReloads() async throws -> [ReloadRecord] {
        try await startUp?.value.widgets ?? []
    }

    /// The control reloads of the same start-up run as ``startUpReloads()``: performed controls whose value was not
    /// read again before their process stopped, and the controls their intents asked `ControlCenter` for.
    /// - Returns: The control reloads made; empty when nothing was owed. The same on every call.
    /// - Throws: What running them threw; they stay owed then.
    public func startUpControlReloads() async throws -> [ControlReload] {
        try await startUp?.value.controls ?? []
    }

    /// Performs one intent and returns once its transaction committed and its reloads ran.
    /// - Parameter request: The intent, its parameters, the tapped instance, the idempotency key, dry run or not.
    /// - Returns: The outcome; for a replayed key, the first outcome with ``IdempotencyInfo/isReplay`` set.
    /// - Throws: ``IntentError`` (unknown intent, bad parameters, `perform()` threw, key reused, the transaction
    ///   failed) or ``EngineError/unknownInstance(_:)``; nothing was changed then.
    public func perform(_ request: PerformRequest) async throws -> IntentOutcome {
        do {
            return try await performKeepingCause(request)
        } catch let failure as IntentPerformFailure {
            throw failure.intentError
        }
    }

    /// Performs one intent as ``perform(_:)`` does, but when the intent's `perform()` threw, rethrows that error
    /// itself instead of ``IntentError/performFailed(intent:message:)``, so a test can expect the intent's own
    /// error (`#expect(throws: HabitError.alreadyLoggedToday)`). Every other failure is the same ``IntentError``;
    /// nothing was changed either way.
    public func performRethrowing(_ request: PerformRequest) async throws -> IntentOutcome {
        do {
            return try await performKeepingCause(request)
        } catch let failure as IntentPerformFailure {
            throw failure.underlying
        }
    }

    /// The perform itself; a throwing `perform()` surfaces as ``IntentPerformFailure``.
    private func performKeepingCause(_ request: PerformRequest) async throws -> IntentOutcome {
        guard let descriptor = intents.descriptor(named: request.intentName) else {
            throw IntentError.unknownIntent(request.intentName, known: intents.intents.map(\.name))
        }
        // Counted as preparing once past the start-up reloads: a batch waits for preparing performs.
        let hasStartedUp = scheduling.withLock { state in
            if state.hasStartedUp { state.preparing += 1 }
            return state.hasStartedUp
        }
        if !hasStartedUp {
            // A failure leaves those reloads owed; it is ``startUpReloads()``'s to report, not this perform's.
            _ = try? await startUpReloads()
            scheduling.withLock { state in
                state.hasStartedUp = true
                state.preparing += 1
            }
        }
        let prepared: Preparation
        do {
            prepared = try await prepare(request, descriptor)
        } catch {
            endPreparing()
            throw error
        }
        switch prepared {
        case .replay(let outcome):
            endPreparing()
            return outcome
        case .bound(let bound):
            return try await commit(request, bound).get()
        }
    }

    private enum Preparation {
        case replay(IntentOutcome)
        case bound(IntentParameterBinder.Bound)
    }

    /// Checks a request's tapped instance and binds its parameters, or finds its committed first outcome.
    ///
    /// On the caller's task, outside the lock: binding runs user code (entity queries), which must not hold up the
    /// queue, nor the performs of other clients.
    ///
    /// A key's committed first outcome is looked for in the batch's transaction, not here: most keys
    /// are new, and a read of the ledger on a reader connection per perform (a read transaction, and the pages the
    /// last commit changed read again) cost more than anything else a perform did before its transaction. A retry
    /// whose check or binding fails (its widget removed, its entities gone since its first perform) is looked up
    /// here, and answered with its first outcome when that committed.
    private func prepare(_ request: PerformRequest, _ descriptor: IntentDescriptor) async throws -> Preparation {
        do {
            if let instanceID = request.instanceID { _ = try await engine.instance(id: instanceID) }
            let binder = IntentParameterBinder(descriptor: descriptor)
            let parameters = request.parameters
            return .bound(try await engine.withUserCode { try await binder.bind(parameters) })
        } catch {
            // In memory, reads wait for an open transaction: the check in the transaction is left to answer.
            guard let key = request.idempotencyKey, !request.isDryRun, !container.store.isInMemory,
                  let (replay, owed) = try committedReplay(key, request) else { throw error }
            return .replay(await settleOwed(claims.claim(owed), replaying: replay))
        }
    }

    /// Performs the intent named `intentName`; see ``perform(_:)``.
    public func perform(_ intentName: String, parameters: [String: JSONValue] = [:], instanceID: String? = nil,
                        idempotencyKey: String? = nil, dryRun: Bool = false) async throws -> IntentOutcome {
        try await perform(PerformRequest(intentName: intentName, parameters: parameters, instanceID: instanceID,
                                         idempotencyKey: idempotencyKey, isDryRun: dryRun))
    }

    /// The committed first outcome for a retry, and the reloads its perform still owes.
    private func committedReplay(_ key: String, _ request: PerformRequest) throws
        -> (IntentOutcome, owed: [OwedReloadLedger.Entry])? {
        let now = engine.clock.now
        let found = try container.store.read { db -> (IdempotencyLedger.Entry, [OwedReloadLedger.Entry])? in
            guard let entry = try IdempotencyLedger.entry(forKey: key, now: now, db) else { return nil }
            return (entry, try OwedReloadLedger.owed(forKey: key, db))
        }
        guard let (entry, owed) = found else { return nil }
        return (try Self.replay(entry, key: key, request: request), owed)
    }

    /// The stored outcome for a retry, or the refusal of a key bound to another request.
    static func replay(_ entry: IdempotencyLedger.Entry, key: String, request: PerformRequest) throws -> IntentOutcome {
        guard entry.request == IdempotencyLedger.requestText(request) else {
            throw IntentError.idempotencyKeyReused(intent: request.intentName, key: key)
        }
        var outcome = entry.outcome
        outcome.idempotency?.isReplay = true
        outcome.reloads = []
        outcome.reloadFailure = nil
        return outcome
    }
}
