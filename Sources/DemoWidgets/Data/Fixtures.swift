import Foundation
import JSON
import SharedState
import WidgetHost

/// The demo data in `Fixtures/*.json`, decoded.
///
/// Project progress and task counts in `projects.json` are checked against `tasks.json` when loading: the widget
/// computes them from the tasks table, so a fixture that disagrees with itself is refused rather than shown.
public struct Fixtures: Sendable, Equatable {
    /// A project as the fixture file spells it.
    public struct Project: Sendable, Equatable, Codable {
        /// Stable id, e.g. `proj-thesis`.
        public var id: String
        /// Display name.
        public var name: String
        /// Completed tasks / all tasks, 0 to 1.
        public var progress: Double
        /// Number of tasks in the project.
        public var taskCount: Int
    }

    /// A task as the fixture file spells it.
    public struct ProjectTask: Sendable, Equatable, Codable {
        /// Stable id, e.g. `task-3`.
        public var id: String
        /// Display title.
        public var title: String
        /// The owning project's id.
        public var projectId: String
        /// Whether it is done.
        public var completed: Bool
    }

    /// The picture of one day.
    public struct DailyItem: Sendable, Equatable, Codable {
        /// The local calendar day, `yyyy-MM-dd`.
        public var day: String
        /// Caption.
        public var title: String
        /// Image asset name.
        public var imageName: String
    }

    /// A favourited item.
    public struct Favorite: Sendable, Equatable, Codable {
        /// The favourited item's id.
        public var itemID: String
        /// `task`, `project` or `daily`.
        public var kind: String
        /// When it was favourited.
        public var addedAt: Date
    }

    /// All projects.
    public var projects: [Project]
    /// All tasks.
    public var tasks: [ProjectTask]
    /// One item per day.
    public var daily: [DailyItem]
    /// Favourites.
    public var favorites: [Favorite]

    /// Reads `projects.json`, `tasks.json`, `daily.json` and `favorites.json` from `directory`.
    /// - Throws: ``FixtureError`` naming the file and what is wrong.
    public init(directory: URL) throws {
        projects = try Self.decode([Project].self, "projects.json", in: directory)
        tasks = try Self.decode([ProjectTask].self, "tasks.json", in: directory)
        daily = try Self.decode([DailyItem].self, "daily.json", in: directory)
        favorites = try Self.decode([Favorite].self, "favorites.json", in: directory)
        try checkConsistency()
    }

    /// The `Fixtures/` directory of this source tree (the daemon's embedded default).
    public static var bundledDirectory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures", isDirectory: true)
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ file: String, in directory: URL) throws -> T {
        let url = directory.appendingPathComponent(file)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw FixtureError(file: url.path, problem: "cannot be read (\(error.localizedDescription))")
        }
        let decoder = JSONDecoder()
        // `.iso8601`, but reading the usual `…Z` dates by hand: Foundation's parser loads ICU's time-zone data
        // (megabytes resident) even for UTC, and the daemon loads the fixtures when it starts on a new directory.
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            do {
                return try DateTimeText.date(from: text, format: .instant)
            } catch {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "\"\(text)\" is not a date-time: \(error)")
            }
        }
        do {
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            throw FixtureError(file: url.path, problem: FixtureError.describe(error))
        }
    }

    private func checkConsistency() throws {
        let projectIDs = Set(projects.map(\.id))
        if let orphan = tasks.first(where: { !projectIDs.contains($0.projectId) }) {
            throw FixtureError(file: "tasks.json", problem: "task \(orphan.id) names unknown project \(orphan.projectId)")
        }
        for project in projects {
            let own = tasks.filter { $0.projectId == project.id }
            let done = own.filter(\.completed).count
            let progress = own.isEmpty ? 0 : Double(done) / Double(own.count)
            guard own.count == project.taskCount, abs(progress - project.progress) < 0.001 else {
                throw FixtureError(
                    file: "projects.json",
                    problem: "project \(project.id) says \(project.taskCount) tasks at progress \(project.progress), "
                        + "tasks.json has \(own.count) tasks with \(done) completed")
            }
        }
    }
}

/// A fixture file that cannot be used, and why.
public struct FixtureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's path.
    public var file: String
    /// What is wrong with it.
    public var problem: String

    /// `file: problem`.
    public var description: String { "\(file): \(problem)" }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context),
             .keyNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return "at \(path.isEmpty ? "top level" : path): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
