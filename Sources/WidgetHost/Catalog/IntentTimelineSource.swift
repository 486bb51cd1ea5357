import AppIntents
import Foundation
import JSON
import WidgetKit

/// An `AppIntentTimelineProvider` (configurable widget) behind ``TimelineSource``.
struct IntentTimelineSource<Provider: AppIntentTimelineProvider & Sendable>: TimelineSource {
    let provider: Provider

    var intentTypeName: String? { String(describing: Provider.Intent.self) }
    var parameterDeclarations: [IntentParameterDeclaration] { Provider.Intent.parameterDeclarations }

    func resolve(_ raw: [String: JSONValue], kind: String) async throws -> ResolvedParameters {
        let resolution = try await ParameterResolver<Provider.Intent>(kind: kind).resolve(raw)
        return ResolvedParameters(parameters: resolution.parameters, diagnostics: resolution.diagnostics)
    }

    func timeline(_ parameters: [String: JSONValue], kind: String, context: TimelineProviderContext)
        async throws -> ProviderTimeline {
        let resolution = try await ParameterResolver<Provider.Intent>(kind: kind).resolve(parameters)
        let timeline = await provider.timeline(for: resolution.intent, in: context)
        return ProviderTimeline(entries: EntryContentEncoder.snapshots(of: timeline.entries),
                                policy: ReloadPolicyRecord(timeline.policy),
                                diagnostics: resolution.diagnostics)
    }

    func placeholder(context: TimelineProviderContext) -> EntrySnapshot {
        EntryContentEncoder.snapshot(of: provider.placeholder(in: context))
    }

    func snapshot(_ parameters: [String: JSONValue], kind: String, context: TimelineProviderContext)
        async throws -> EntrySnapshot {
        let resolution = try await ParameterResolver<Provider.Intent>(kind: kind).resolve(parameters)
        return EntryContentEncoder.snapshot(of: await provider.snapshot(for: resolution.intent, in: context))
    }

    func options(parameter name: String, matching text: String?, kind: String) async throws -> [ParameterOption] {
        let intent = Provider.Intent()
        guard let parameter = intent.parameter(named: name) else {
            throw EngineError.unknownParameter(kind: kind, parameter: name,
                                               known: intent.parameters().map(\.name))
        }
        if let query = parameter.entityQuery() {
            let entities: [ResolvedEntity]
            if let text, !text.isEmpty {
                guard let found = try await query.entities(matching: text) else {
                    // Not an EntityStringQuery: filter the suggestions by title, as the system's picker does.
                    let needle = text.lowercased()
                    return try await query.suggestedEntities()
                        .filter { $0.title.lowercased().contains(needle) }.map(Self.option)
                }
                entities = found
            } else {
                entities = try await query.suggestedEntities()
            }
            return entities.map(Self.option)
        }
        if case .enumeration(let enumeration) = parameter.kind {
            let needle = text?.lowercased() ?? ""
            return enumeration.cases
                .filter { needle.isEmpty || $0.title.lowercased().contains(needle) }
                .map { ParameterOption(value: .string($0.rawValue), title: $0.title) }
        }
        if let dynamic = try await parameter.dynamicOptions() {
            return dynamic.map { ParameterOption(value: ParameterValueConversion.json(from: $0), title: "\($0)") }
        }
        throw EngineError.parameterHasNoOptions(kind: kind, parameter: name)
    }

    func configurationIntent(_ parameters: [String: JSONValue], kind: String) async
        -> (any WidgetConfigurationIntent)? {
        try? await ParameterResolver<Provider.Intent>(kind: kind).resolve(parameters).intent
    }

    private static func option(_ entity: ResolvedEntity) -> ParameterOption {
        ParameterOption(value: .string(entity.id), title: entity.title, subtitle: entity.subtitle)
    }
}
