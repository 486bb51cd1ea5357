// The habit tracker's daemon: `habits-host serve [options]`, `habits-host perform LogHabitIntent --param habitID=…`.
import Foundation
import HabitWidgets
import WidgetHostCommandLine

WidgetHostCommandLine.main(HostedApp(
    commandName: "habits-host", appGroup: HabitStore.appGroup,
    catalog: { HabitWidgets.catalog() }, intents: { HabitWidgets.intents() },
    routesDirectory: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Routes").standardizedFileURL.path,
    prepareContainer: { try HabitStore.migrator.migrate($0.store) }))
