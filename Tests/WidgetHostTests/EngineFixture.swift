import DemoWidgets
import Foundation
import SharedState
import WidgetHost

/// A demo engine on disk in a fresh temporary directory, on a virtual clock.
struct EngineFixture {
    let directory: URL
    let container: AppGroupContainer
    let store: EngineStore
    let clock: VirtualClock
    let engine: WidgetEngine
    let timeZone: TimeZone

    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    init(catalog: WidgetCatalog = DemoCatalog.make(), start: Date = EngineFixture.date("2026-11-25T10:00:00+09:00"),
         timeZone: TimeZone = EngineFixture.tokyo, budget: ReloadBudgetPolicy = .default,
         directory: URL? = nil) throws {
        let directory = directory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("widgethost-tests-\(UUID().uuidString)", isDirectory: true)
        self.directory = directory
        container = try AppGroupContainer(identifier: DemoSchema.appGroup, dataDirectory: directory)
        if try FixtureLoader.isEmpty(container) {
            try FixtureLoader.load(Fixtures(directory: Fixtures.bundledDirectory), into: container)
        }
        store = try EngineStore(directory: directory)
        clock = VirtualClock(start: try WidgetEngine.savedVirtualTime(in: store) ?? start)
        self.timeZone = timeZone
        engine = WidgetEngine(catalog: catalog, store: store, clock: clock, budget: budget, timeZone: timeZone,
                              containers: [container])
    }

    /// The same directory opened again, as a restarted process would.
    func reopened(catalog: WidgetCatalog = DemoCatalog.make(), budget: ReloadBudgetPolicy = .default) throws
        -> EngineFixture {
        try EngineFixture(catalog: catalog, timeZone: timeZone, budget: budget, directory: directory)
    }

    static func date(_ text: String) -> Date {
        guard let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) else {
            preconditionFailure("bad test date \(text)")
        }
        return date
    }
}
