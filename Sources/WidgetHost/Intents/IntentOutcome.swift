import Foundation
import JSON
import SharedState

/// What one perform did: the intent's result, the state it changed, and the timelines it reloaded.
///
/// `Codable` keeps every value's exact type (the idempotency table stores outcomes this way); for people and
/// HTTP clients, ``json`` renders plain JSON.
public struct IntentOutcome: Sendable, Hashable, Codable {
    /// The intent's registered name.
    public var intentName: String
    /// The parameters it ran with, canonical: entity ids, enum raw values, ISO 8601 dates, null for nil.
    public var parameters: [String: JSONValue]
    /// The tapped widget instance, if any.
    public var instanceID: String?
    /// The value of `.result(value:)`, as JSON (entities by id, other non-JSON values by their description).
    public var value: JSONValue?
    /// The dialog of `.result(dialog:)`, if any.
    public var dialog: String?
    /// The rows and defaults keys the perform changed, before → after. For a dry run: what it would change.
    public var changes: ChangeSet
    /// The reloads the intent asked for through `WidgetCenter` (kinds; `*` for all), in order, without repeats.
    public var requestedReloads: [String]
    /// The control reloads the intent asked for through `ControlCenter` (kinds; `*` for all), in order, without
    /// repeats; nil when it asked for none (and in outcomes stored before controls existed). Owed with the perform
    /// and applied after its commit (``controlReloads``).
    public var requestedControlReloads: [String]?
    /// The reloads the perform causes (or, dry run, would cause): the tapped instance first (budget-exempt),
    /// then the instances of requested kinds (budgeted), as the budget stood before they ran.
    public var plannedReloads: [PlannedReload]
    /// The provider runs made for this perform after its commit. Performs committed together share runs: a
    /// kind requested by several of them is rebuilt once. Empty for dry runs; empty for replays too, unless the
    /// replay found the first perform's reloads still owed and ran them (see ``IntentRunner``, "Owed reloads").
    public var reloads: [ReloadRecord]
    /// The control reloads made for this perform after its commit: the performed control first (when the perform
    /// came from a control), then the controls its `ControlCenter` requests named. Empty for dry runs and replays
    /// (unless a replay ran what its first perform still owed), like ``reloads``. Not stored with an idempotency
    /// key: a replay reports what it ran itself.
    public var controlReloads: [ControlReload] = []
    /// Set when reloading failed after the commit; the perform's changes are committed all the same, and its
    /// reloads stay owed until a restart or a replay of its idempotency key runs them.
    public var reloadFailure: String?
    /// True when nothing was committed: the changes and reloads are what the perform would do.
    public var isDryRun: Bool
    /// Idempotency details when the request carried a key (never for dry runs).
    public var idempotency: IdempotencyInfo?
    /// When the perform ran, on the engine's clock.
    public var performedAt: Date

    /// Creates an outcome; the runner creates these.
    public init(intentName: String, parameters: [String: JSONValue], instanceID: String?, value: JSONValue?,
                dialog: String?, changes: ChangeSet, requestedReloads: [String], plannedReloads: [PlannedReload],
                reloads: [ReloadRecord] = [], reloadFailure: String? = nil, isDryRun: Bool,
                idempotency: IdempotencyInfo? = nil, performedAt: Date) {
        self.intentName = intentName
        self.parameters = parameters
        self.instanceID = instanceID
        self.value = value
        self.dialog = dialog
        self.changes = changes
        self.requestedReloads = requestedReloads
        self.plannedReloads = plannedReloads
        self.reloads = reloads
        self.reloadFailure = reloadFailure
        self.isDryRun = isDryRun
        self.idempotency = idempotency
        self.performedAt = performedAt
    }

    /// The stored members; ``controlReloads`` is not one of them (see there).
    enum CodingKeys: String, CodingKey {
        case intentName, parameters, instanceID, value, dialog, changes, requestedReloads, requestedControlReloads
        case plannedReloads, reloads, reloadFailure, isDryRun, idempotency, performedAt
    }

    /// Whether this outcome was replayed from an earlier perform with the same idempotency key.
    public var isReplay: Bool { idempotency?.isReplay ?? false }
}

/// A reload a perform causes, decided before it runs.
public struct PlannedReload: Sendable, Hashable, Codable {
    /// The instance to reload.
    public var instanceID: String
    /// Its kind.
    public var kind: String
    /// `interactiveIntent` for the tapped instance, `kindReload` / `allReload` for `WidgetCenter` requests.
    public var reason: ReloadReason
    /// Whether the reload is charged to the instance's budget.
    public var isBudgetExempt: Bool { reason.isBudgetExempt }
    /// True when the instance's budget is spent, so the reload is deferred until the budget allows it.
    public var deferredByBudget: Bool

    /// Creates a planned reload.
    public init(instanceID: String, kind: String, reason: ReloadReason, deferredByBudget: Bool) {
        self.instanceID = instanceID
        self.kind = kind
        self.reason = reason
        self.deferredByBudget = deferredByBudget
    }
}

/// How an idempotency key was used.
public struct IdempotencyInfo: Sendable, Hashable, Codable {
    /// The caller's key.
    public var key: String
    /// True when this outcome is the stored first outcome, returned without running the intent again.
    public var isReplay: Bool
    /// When the key's first perform ran, on the engine's clock.
    public var firstPerformedAt: Date
    /// When the key expires; a request with the key after that runs again.
    public var expiresAt: Date

    /// Creates idempotency details.
    public init(key: String, isReplay: Bool, firstPerformedAt: Date, expiresAt: Date) {
        self.key = key
        self.isReplay = isReplay
        self.firstPerformedAt = firstPerformedAt
        self.expiresAt = expiresAt
    }
}
