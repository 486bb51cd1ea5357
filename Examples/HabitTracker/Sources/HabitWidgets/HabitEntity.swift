import AppIntents
import Foundation

/// A habit the user tracks. The app writes the list to `habits.json` in its App Group directory.
public struct HabitEntity: AppEntity, Codable {
    public static let typeDisplayRepresentation: TypeDisplayRepresentation = "Habit"
    public static let defaultQuery = HabitQuery()

    public var id: String
    public var name: String

    public var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(name)") }

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// Finds habits in the App Group's `habits.json`, found as on iOS through `FileManager.containerURL`.
public struct HabitQuery: EntityQuery {
    public init() {}

    /// The file the app keeps its habits in.
    static var habitsFile: URL? {
        FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: HabitStore.appGroup)?
            .appendingPathComponent("habits.json")
    }

    /// Every habit; none when the app has not written the file yet.
    static func allHabits() throws -> [HabitEntity] {
        guard let file = habitsFile, FileManager.default.fileExists(atPath: file.path) else { return [] }
        return try JSONDecoder().decode([HabitEntity].self, from: Data(contentsOf: file))
    }

    public func entities(for identifiers: [String]) async throws -> [HabitEntity] {
        try Self.allHabits().filter { identifiers.contains($0.id) }
    }

    public func suggestedEntities() async throws -> [HabitEntity] {
        try Self.allHabits()
    }
}
