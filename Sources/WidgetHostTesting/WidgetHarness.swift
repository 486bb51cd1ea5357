import AppIntents
import Foundation
import JSON
import SharedState
import WidgetHost
import WidgetKit

/// A widget host for tests: an engine on a virtual clock, one App Group container, and an intent runner, set up in
/// one call and thrown away afterwards.
///
/// Place widgets, perform interactive intents as a tap would, look at what each perform changed and reloaded and
/// at the entry a widget shows now, and move the clock. This is how interactive intents are tested on Linux CI,
/// where there is no device and no WidgetKit (see `Docs/testing-intents.md` for a complete example).
///
/// ```swift
/// let harness = try WidgetHarness(catalog: DemoCatalog.make(), intents: DemoCatalog.makeIntents(),
///                                 appGroup: DemoSchema.appGroup) { container in
///     try FixtureLoader.load(Fixtures(directory: Fixtures.bundledDirectory), into: container)
/// }
/// let list = try await harness.place(DemoCatalog.Kind.taskList, family: .systemLarge)
/// let outcome = try await harness.perform("CompleteTaskIntent", ["taskId": "task-1"], tapping: list.instance.id)
/// ```
///
/// Reopening a directory (``Storage/directory(_:)``) is a restart: reloads that performs of the earlier harness still
/// owed (its process was killed between a perform's commit and its reloads) run first, before any call of this
/// harness answers, so a tapped widget never shows the state from before the tap.
///
/// The container lives in a fresh temporary directory by default (on disk, as in production, with
/// `synchronous = FULL` unless you pass another durability), removed when the harness is deallocated. The clock
/// starts at ``defaultStart`` in UTC unless you choose otherwise, so entries and dates are the same on every run.
public final class WidgetHarness: Sendable {
    /// Where the harness keeps its databases.
    public enum Storage: Sendable {
        /// A fresh temporary directory, removed when the harness is deallocated.
        case temporaryDirectory
        /// A directory of yours, kept afterwards (to look at the files, or to reopen them in a second harness).
        case directory(URL)
        /// In memory, both the container and the engine store: fastest, but unlike production (an in-memory
        /// container serves reads on its one connection, so they wait for a perform's transaction).
        case inMemory
    }

    /// 2024-05-01 09:00:00 UTC: a weekday morning.
    public static let defaultStart = Date(timeIntervalSince1970: 1_714_554_000)

    /// The engine serving the catalog.
    public let engine: WidgetEngine
    /// The intent runner over ``container``.
    public let runner: IntentRunner
    /// The App Group container intents change and widgets read.
    public let container: AppGroupContainer
    /// The engine's clock.
    public let clock: VirtualClock
    /// The directory holding the databases, nil in memory.
    public let directory: URL?
    /// Whether ``place(_:family:parameters:id:)`` fails on a parameter it could not resolve (see
    /// ``WidgetHarnessError/unresolvedParameter(kind:diagnostics:)``).
    public let strictParameters: Bool
    private let removesDirectory: Bool
    /// Whether the harness works on a directory it keeps, which a later harness reopens: owed reloads that ran must
    /// be marked done before a call returns.
    var keepsDirectory: Bool { directory != nil && !removesDirectory }

    /// Creates a harness.
    /// - Parameters:
    ///   - catalog: The widget kinds.
    ///   - intents: The interactive intents.
    ///   - appGroup: The App Group identifier of the container (what the code under test passes to
    ///     `UserDefaults(suiteName:)`).
    ///   - storage: Where the databases live; a temporary directory by default.
    ///   - synchronous: Durability of the container's commits; `full` by default, as in production.
    ///   - start: The clock's start.
    ///   - timeZone: The device's time zone; UTC by default.
    ///   - budget: The per-instance reload budget.
    ///   - strictParameters: Fail ``place(_:family:parameters:id:)`` when a parameter names an entity its query
    ///     does not return (a mistyped id), instead of placing a widget on the parameter's default with a
    ///     `deleted-entity` warning as the engine does for a user's widget. On by default; pass `false` to test
    ///     how a widget copes with a deleted entity.
    ///   - controls: The control kinds (toggles and buttons); none by default. See `WidgetHarness+Controls.swift`.
    ///   - setUp: Fills the container before any widget is placed (create tables, load fixtures).
    /// - Throws: What opening the databases or `setUp` threw.
    public init(catalog: WidgetCatalog, intents: IntentCatalog = IntentCatalog(), appGroup: String,
                storage: Storage = .temporaryDirectory, synchronous: DatabaseStore.Synchronous = .full,
                start: Date = WidgetHarness.defaultStart, timeZone: TimeZone = TimeZone(identifier: "UTC")!,
                budget: ReloadBudgetPolicy = .default, strictParameters: Bool = true,
                controls: ControlCatalog = ControlCatalog(),
                setUp: (AppGroupContainer) throws -> Void = { _ in }) throws {
        self.strictParameters = strictParameters
        let engineStore: EngineStore
        switch storage {
        case .inMemory:
            directory = nil
            removesDirectory = false
            container = try AppGroupContainer.inMemory(identifier: appGroup)
            engineStore = try EngineStore.inMemory()
        case .temporaryDirectory, .directory:
            let chosen: URL
            if case .directory(let url) = storage {
                chosen = url
                removesDirectory = false
            } else {
                chosen = FileManager.default.temporaryDirectory
                    .appendingPathComponent("WidgetHarness-\(UUID().uuidString)", isDirectory: true)
                removesDirectory = true
            }
            directory = chosen
            container = try AppGroupContainer(identifier: appGroup, dataDirectory: chosen, synchronous: synchronous)
            engineStore = try EngineStore(database: DatabaseStore(
                path: chosen.appendingPathComponent("widgethost.sqlite").path,
                configuration: .init(synchronous: synchronous)))
        }
        try setUp(container)
        clock = VirtualClock(start: start)
        engine = WidgetEngine(catalog: catalog, store: engineStore, clock: clock, budget: budget, timeZone: timeZone,
                              containers: [container], controls: controls)
        runner = try IntentRunner(engine: engine, intents: intents, container: container)
    }

    deinit {
        if removesDirectory, let directory { try? FileManager.default.removeItem(at: directory) }
    }

    // MARK: Widgets

    /// Places a widget, which builds its first timeline.
    /// - Returns: The instance's state; its id is `state.instance.id`.
    /// - Throws: What the engine throws for an unknown kind or a bad parameter value; with ``strictParameters``,
    ///   ``WidgetHarnessError/unresolvedParameter(kind:diagnostics:)`` when an entity id names nothing (the widget
    ///   is removed again).
    @discardableResult
    public func place(_ kind: String, family: WidgetFamily = .systemMedium, parameters: [String: JSONValue] = [:],
                      id: String? = nil) async throws -> InstanceState {
        await startedUp()
        let state = try await engine.place(kind: kind, family: family, parameters: parameters, id: id)
        let unresolved = state.diagnostics.filter { $0.code == .deletedEntity }
        if strictParameters, !unresolved.isEmpty {
            // In a test an unknown id is almost always a typo: an empty widget would pass for a wrong one.
            try await engine.remove(instanceID: state.instance.id)
            throw WidgetHarnessError.unresolvedParameter(kind: kind, diagnostics: unresolved)
        }
        return state
    }

    /// The entry the instance shows now.
    public func entry(of instanceID: String) async throws -> EntrySnapshot {
        await startedUp()
        return try await engine.entry(instanceID: instanceID)
    }

    /// The entry the instance shows now, decoded as the provider's `Decodable` entry type (its `date` included).
    public func entry<Entry: Decodable>(of instanceID: String, as type: Entry.Type) async throws -> Entry {
        let snapshot = try await entry(of: instanceID)
        var members = snapshot.content.objectValue ?? [:]
        members["date"] = .string(snapshot.date.formatted(Date.ISO8601FormatStyle()))
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(Entry.self, from: Data(JSONValue.object(members).canonicalText.utf8))
    }

    /// Everything about an instance now: timeline, next reload, budget, diagnostics.
    public func state(of instanceID: String) async throws -> InstanceState {
        await startedUp()
        return try await engine.state(ofInstance: instanceID)
    }

    // MARK: Intents

    /// Performs an intent as a tap would, and returns once it committed and its reloads ran.
    /// - Parameters:
    ///   - intentName: The registered name.
    ///   - parameters: Parameter values by name.
    ///   - instanceID: The tapped widget instance, reloaded at once (budget-exempt); nil for none.
    ///   - idempotencyKey: A key making retries return the first outcome.
    ///   - dryRun: Report the changes and reloads without keeping them.
    /// - Throws: The intent's own error when its `perform()` threw (so `#expect(throws: MyError.x)` works; the API
    ///   and ``IntentRunner/perform(_:)`` answer ``IntentError/performFailed(intent:message:)`` instead); every
    ///   other failure is an ``IntentError`` naming the intent. Nothing was changed then.
    @discardableResult
    public func perform(_ intentName: String, _ parameters: [String: JSONValue] = [:], tapping instanceID: String? = nil,
                        idempotencyKey: String? = nil, dryRun: Bool = false) async throws -> IntentOutcome {
        let outcome = try await runner.performRethrowing(PerformRequest(
            intentName: intentName, parameters: parameters, instanceID: instanceID, idempotencyKey: idempotencyKey,
            isDryRun: dryRun))
        // A harness reopening the kept directory must not find these reloads still owed and run them again.
        if keepsDirectory { await runner.markReloadsDone() }
        return outcome
    }

    // MARK: Clock

    /// The engine's now.
    public var now: Date { clock.now }

    /// Moves the clock forward, running every reload that comes due on the way.
    /// - Returns: The provider runs made.
    @discardableResult
    public func advanceClock(by interval: TimeInterval) async throws -> [ReloadRecord] {
        await startedUp()
        return try await engine.advanceClock(by: interval)
    }

    /// Waits for the reloads owed from before the harness was created (``IntentRunner/startUpReloads()``). Their
    /// failure is not the calling method's: `runner.startUpReloads()` reports it.
    func startedUp() async {
        _ = try? await runner.startUpReloads()
    }

    // MARK: State

    /// A key of the App Group's standard suite (what `UserDefaults(suiteName: appGroup)` reads).
    public func defaultsValue(forKey key: String) throws -> PropertyListValue? {
        try container.suite().readValue(forKey: key)
    }

    /// Reads the container's committed data.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try container.store.read(body)
    }
}
