import Foundation
@testable import SharedState
@testable import WidgetHost

/// The engine's schema as databases had it before some of its migrations, for the tests that migrate such databases.
enum EngineSchemaBefore {
    /// Every engine migration except those named, in order: a database these migrate lacks exactly those.
    static func migrator(without names: Set<String>) -> Migrator {
        var migrator = Migrator()
        for migration in EngineSchema.migrator.migrations where !names.contains(migration.name) {
            migrator.registerMigration(migration.name, migration.apply)
        }
        return migrator
    }

    /// A new empty directory for such a database (the caller removes it).
    static func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("widgethost-migration-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
