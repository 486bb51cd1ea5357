import DemoWidgets
import Foundation
import JSON
import WidgetHost
import WidgetHostTesting
import WidgetKit

/// `intents-crashperformer control <data-directory>`: one toggle of the demo's focus control that dies after its
/// commit, while the control's value is being read again, so the restart test knows the perform is committed and its
/// control reloads are owed, not run.
///
/// Sets up a ``WidgetHarness`` on the directory (demo container, engine store, virtual clock at the harness's default
/// start) with the demo's focus toggle, except that its value provider kills the process once armed; places the
/// focus toggle `focus` and the project focus toggle `launch` (project `proj-launch`), then sets `focus` on with the
/// idempotency key `focus-1`. Reaching the end is an error (exit 1).
enum ControlPerformer {
    static let focus = "focus"
    static let projectFocus = "launch"
    static let idempotencyKey = "focus-1"

    static func run(dataDirectory: URL) async throws -> Never {
        var controls = ControlCatalog()
        controls.registerToggle(kind: DemoCatalog.Control.focus, intent: SetFocusModeIntent.self,
                                provider: KillingFocusModeValueProvider())
        controls.registerToggle(kind: DemoCatalog.Control.projectFocus, intent: FocusProjectIntent.self,
                                provider: ProjectFocusValueProvider())
        let harness = try WidgetHarness(catalog: DemoCatalog.make(), intents: DemoCatalog.makeIntents(),
                                        appGroup: DemoSchema.appGroup, storage: .directory(dataDirectory),
                                        controls: controls) { container in
            if try FixtureLoader.isEmpty(container) {
                try FixtureLoader.load(Fixtures(directory: Fixtures.bundledDirectory), into: container)
            }
        }
        try await harness.placeControl(DemoCatalog.Control.focus, id: focus)
        try await harness.placeControl(DemoCatalog.Control.projectFocus, id: projectFocus,
                                       configuration: ["project": "proj-launch"])
        KillSwitch.armed.store(true, ordering: .releasing)
        let outcome = try await harness.setControl(focus, to: true, idempotencyKey: idempotencyKey)
        FileHandle.standardError.write(Data("intents-crashperformer: not killed; control reloads: \(outcome.reloads)\n".utf8))
        exit(1)
    }
}

/// The demo focus toggle's provider, but reading the value kills the process once ``KillSwitch`` is armed.
struct KillingFocusModeValueProvider: ControlValueProvider {
    let provider = FocusModeValueProvider()

    var previewValue: Bool { provider.previewValue }

    func currentValue() async throws -> Bool {
        if KillSwitch.armed.load(ordering: .acquiring) { KillSwitch.fire() }
        return try await provider.currentValue()
    }
}
