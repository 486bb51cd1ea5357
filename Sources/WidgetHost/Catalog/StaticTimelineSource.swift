import AppIntents
import JSON
import Synchronization
import Foundation
import WidgetKit

/// A `TimelineProvider` (completion-handler style, no configuration) behind ``TimelineSource``.
struct StaticTimelineSource<Provider: TimelineProvider & Sendable>: TimelineSource {
    let provider: Provider

    var intentTypeName: String? { nil }
    var parameterDeclarations: [IntentParameterDeclaration] { [] }

    func resolve(_ raw: [String: JSONValue], kind: String) async throws -> ResolvedParameters {
        if let name = raw.keys.sorted().first {
            throw EngineError.unknownParameter(kind: kind, parameter: name, known: [])
        }
        return ResolvedParameters(parameters: [:], diagnostics: [])
    }

    func timeline(_ parameters: [String: JSONValue], kind: String, context: TimelineProviderContext)
        async throws -> ProviderTimeline {
        let provider = provider
        let timeline = await withCheckedContinuation { (continuation: CheckedContinuation<ProviderTimeline, Never>) in
            let once = ResumeOnce(continuation)
            provider.getTimeline(in: context) { timeline in
                once.resume(ProviderTimeline(entries: EntryContentEncoder.snapshots(of: timeline.entries),
                                             policy: ReloadPolicyRecord(timeline.policy), diagnostics: []))
            }
        }
        return timeline
    }

    func placeholder(context: TimelineProviderContext) -> EntrySnapshot {
        EntryContentEncoder.snapshot(of: provider.placeholder(in: context))
    }

    func snapshot(_ parameters: [String: JSONValue], kind: String, context: TimelineProviderContext)
        async throws -> EntrySnapshot {
        let provider = provider
        return await withCheckedContinuation { (continuation: CheckedContinuation<EntrySnapshot, Never>) in
            let once = ResumeOnce(continuation)
            provider.getSnapshot(in: context) { entry in once.resume(EntryContentEncoder.snapshot(of: entry)) }
        }
    }

    func options(parameter: String, matching: String?, kind: String) async throws -> [ParameterOption] {
        throw EngineError.unknownParameter(kind: kind, parameter: parameter, known: [])
    }

    func configurationIntent(_ parameters: [String: JSONValue], kind: String) async
        -> (any WidgetConfigurationIntent)? { nil }
}

/// Resumes a continuation at most once: a provider that calls its completion handler twice is a bug on its
/// side, and must not crash the engine.
final class ResumeOnce<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, Never>?>

    init(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation = Mutex(continuation)
    }

    func resume(_ value: Value) {
        let pending = continuation.withLock { stored in
            defer { stored = nil }
            return stored
        }
        pending?.resume(returning: value)
    }
}
