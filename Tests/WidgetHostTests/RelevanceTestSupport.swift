import DeepLinks
import Foundation
import Synchronization
import WidgetHost
import WidgetKit

/// One scripted entry: seconds after the provider run, and its relevance (nil: the entry has none).
struct ScriptedRelevance: Sendable {
    var offset: TimeInterval
    var score: Float?
    var duration: TimeInterval = 0
}

/// The entries a ``RelevanceScriptProvider`` returns next; a test changes it between reloads.
final class RelevanceScript: Sendable {
    private let entries: Mutex<[ScriptedRelevance]>

    init(_ entries: [ScriptedRelevance]) {
        self.entries = Mutex(entries)
    }

    func set(_ new: [ScriptedRelevance]) { entries.withLock { $0 = new } }
    var current: [ScriptedRelevance] { entries.withLock { $0 } }
}

/// A static provider whose entries carry scripted relevance.
struct RelevanceScriptProvider: TimelineProvider, Sendable {
    let script: RelevanceScript

    func placeholder(in context: Context) -> CountEntry { CountEntry(date: .distantPast, label: "placeholder") }

    func getSnapshot(in context: Context, completion: @escaping (CountEntry) -> Void) {
        completion(CountEntry(date: HostEnvironment.current?.now ?? Date(), label: "snapshot"))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<CountEntry>) -> Void) {
        let now = HostEnvironment.current?.now ?? Date()
        let entries = script.current.enumerated().map { index, item in
            CountEntry(date: now.addingTimeInterval(item.offset), label: "entry-\(index)",
                       relevance: item.score.map { TimelineEntryRelevance(score: $0, duration: item.duration) })
        }
        completion(Timeline(entries: entries, policy: .never))
    }
}

/// An engine whose catalog has scripted-relevance kinds (`Alpha`, `Beta`, `Gamma`) and the `Greeting` kind.
struct RelevanceFixture {
    let fixture: EngineFixture
    let scripts: [String: RelevanceScript]
    var engine: WidgetEngine { fixture.engine }
    var start: Date { EngineFixture.date("2026-11-25T10:00:00+09:00") }

    init(_ scripts: [String: [ScriptedRelevance]], directory: URL? = nil) throws {
        var boxes: [String: RelevanceScript] = [:]
        var catalog = WidgetCatalog()
        for kind in ["Alpha", "Beta", "Gamma"] {
            let script = RelevanceScript(scripts[kind] ?? [ScriptedRelevance(offset: 0, score: nil)])
            boxes[kind] = script
            catalog.register(kind: kind, displayName: kind, families: [.systemSmall, .systemMedium],
                             provider: RelevanceScriptProvider(script: script))
        }
        catalog.register(kind: "Greeting", families: [.systemSmall, .systemMedium], provider: GreetingProvider())
        self.scripts = boxes
        fixture = try EngineFixture(catalog: catalog, directory: directory)
    }

    /// Places one instance per kind (id = lowercased kind) and a stack `s` of them, in order.
    func stack(_ kinds: [String], policyStack: String = "s") async throws {
        for kind in kinds {
            try await engine.place(kind: kind, family: .systemMedium, id: kind.lowercased())
        }
        try await engine.createStack(policyStack, instanceIDs: kinds.map { $0.lowercased() })
    }

    func at(_ seconds: TimeInterval) -> Date { start.addingTimeInterval(seconds) }
}

/// The repository's `Routes/` directory.
let defaultRoutesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Routes").path

extension RankedInstance {
    var id: String { instanceID }
}

extension StackRanking {
    func instance(_ id: String) -> RankedInstance? { instances.first { $0.instanceID == id } }
}
