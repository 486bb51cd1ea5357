import Foundation
import SharedState
import WidgetHost

/// Where demo code finds its data and its clock while the engine runs it.
enum DemoEnvironment {
    /// The demo repository over the engine's demo container, or nil when the engine has none.
    ///
    /// The container must hold the demo tables already (the fixture loader and `DemoRepository(container:)` create
    /// them); reads of a container without them fail and the widgets show nothing.
    static var repository: DemoRepository? {
        guard let container = HostEnvironment.current?.container(forGroup: DemoSchema.appGroup) else { return nil }
        return DemoRepository(migratedContainer: container)
    }

    /// The engine's now (virtual in tests), falling back to the wall clock outside the engine.
    static var now: Date { HostEnvironment.current?.now ?? Date() }

    /// The device calendar.
    static var calendar: Calendar { HostEnvironment.current?.calendar ?? .device(in: .current) }
}
