// intents-crashperformer: the child process of the interactive-intent crash tests.
//
// Usage: intents-crashperformer <data-directory> <first-sequence> [workers]
//        intents-crashperformer tap <data-directory> in-tapped-reload|after-reloads
//        intents-crashperformer plan <data-directory> <first-sequence>
//        intents-crashperformer control <data-directory>
//
// The fourth form toggles a control and dies before its value is read again (ControlPerformer.swift).
// The third form submits state changes to the push planner until killed (PlanPerformer.swift).
// The second form is one tap that kills itself between its commit and its reloads being marked done
// (TapPerformer.swift). The first:
// Opens the App Group container `group.intents.crash` (synchronous = FULL) and performs, from several concurrent
// workers, a stream of `RecordCompletionIntent(sequence:)` through an IntentRunner (so performs share group
// commits), each with the idempotency key `seq-<n>`, starting at <first-sequence>. Each perform appends a row to
// `completion_log` (no unique constraint: a perform applied twice shows as two rows) and increments the default
// `completions`. After a perform's outcome is returned (after its commit), the child writes `<n> performed` or
// `<n> replayed` on its own line, unbuffered: the acknowledgement the test holds the container to after SIGKILL.
// It stops by itself when its parent goes away, so a failed test leaves no performer behind.
import AppIntents
import Foundation
import SharedState
import Synchronization
import WidgetHost

/// A CompleteTask-like intent whose effect is not idempotent by itself, so a double application is visible.
struct RecordCompletionIntent: AppIntent {
    static let title: LocalizedStringResource = "Record Completion"

    @Parameter(title: "Sequence")
    var sequence: Int

    func perform() async throws -> some IntentResult & ReturnsValue<Int> {
        guard let transaction = IntentTransaction.current(forGroup: crashGroup) else {
            throw CocoaError(.featureUnsupported)
        }
        try transaction.withDatabase { db in
            try db.execute("INSERT INTO completion_log(seq) VALUES (?)", [.integer(Int64(sequence))])
        }
        let defaults = UserDefaults(suiteName: crashGroup)
        let count = (defaults?.integer(forKey: "completions") ?? 0) + 1
        defaults?.set(count, forKey: "completions")
        return .result(value: count)
    }
}

let crashGroup = "group.intents.crash"
let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "tap" {
    guard let killPoint = TapPerformer.KillPoint(rawValue: arguments[3]) else {
        FileHandle.standardError.write(Data("intents-crashperformer: unknown kill point '\(arguments[3])'\n".utf8))
        exit(64)
    }
    do {
        try await TapPerformer.run(dataDirectory: URL(fileURLWithPath: arguments[2]), killPoint: killPoint)
    } catch {
        FileHandle.standardError.write(Data("intents-crashperformer: \(error)\n".utf8))
        exit(1)
    }
}
if arguments.count == 3, arguments[1] == "control" {
    do {
        try await ControlPerformer.run(dataDirectory: URL(fileURLWithPath: arguments[2]))
    } catch {
        FileHandle.standardError.write(Data("intents-crashperformer: \(error)\n".utf8))
        exit(1)
    }
}
if arguments.count == 4, arguments[1] == "plan", let first = Int(arguments[3]) {
    do {
        try PlanPerformer.run(dataDirectory: URL(fileURLWithPath: arguments[2]), first: first)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("intents-crashperformer: \(error)\n".utf8))
        exit(1)
    }
}
guard arguments.count >= 3, let first = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: intents-crashperformer <data-directory> <first-sequence> [workers]\n".utf8))
    exit(64)
}
let workers = arguments.count > 3 ? max(1, Int(arguments[3]) ?? 4) : 4

do {
    let container = try AppGroupContainer(identifier: crashGroup, dataDirectory: URL(fileURLWithPath: arguments[1]),
                                          synchronous: .full)
    var migrator = Migrator()
    migrator.registerMigration("CrashPerformer.1-log") { db in
        try db.execute("CREATE TABLE completion_log(id INTEGER PRIMARY KEY AUTOINCREMENT, seq INTEGER NOT NULL)")
    }
    try migrator.migrate(container.store)
    var intents = IntentCatalog()
    intents.register(RecordCompletionIntent.self)
    let engine = WidgetEngine(catalog: WidgetCatalog(), store: try EngineStore.inMemory(), containers: [container])
    let runner = try IntentRunner(engine: engine, intents: intents, container: container)
    try await CrashPerformer.run(runner: runner, first: first, workers: workers, parent: getppid())
} catch {
    FileHandle.standardError.write(Data("intents-crashperformer: \(error)\n".utf8))
    exit(1)
}

/// The workers, outside the main actor so they run in parallel.
enum CrashPerformer {
    static func run(runner: IntentRunner, first: Int, workers: Int, parent: pid_t) async throws {
        let next = SequenceCounter(first)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<workers {
                group.addTask {
                    while getppid() == parent {
                        let sequence = next.take()
                        let outcome = try await runner.perform("RecordCompletionIntent",
                                                               parameters: ["sequence": .int(sequence)],
                                                               idempotencyKey: "seq-\(sequence)")
                        // FileHandle writes straight to the descriptor: nothing sits in a buffer when the kill comes.
                        let line = "\(sequence) \(outcome.isReplay ? "replayed" : "performed")\n"
                        FileHandle.standardOutput.write(Data(line.utf8))
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}

/// Hands out consecutive sequence numbers to the workers.
final class SequenceCounter: Sendable {
    private let next: Atomic<Int>

    init(_ first: Int) { next = Atomic(first) }

    func take() -> Int { next.add(1, ordering: .relaxed).oldValue }
}
