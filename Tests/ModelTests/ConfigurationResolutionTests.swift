// The host-facing API used as the engine uses it, in Swift 6 mode with ExistentialAny: resolve a
// widget instance's raw JSON configuration into a fresh intent, concurrently, through reflection.
import AppIntents
import Foundation
import Testing
import WidgetKit

struct ColorEntity: AppEntity {
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Color"
    static let defaultQuery = ColorQuery()
    let id: UUID
    let name: String
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(name)") }
}

struct ColorQuery: EntityQuery {
    static let colors = [
        ColorEntity(id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, name: "Red"),
        ColorEntity(id: UUID(uuidString: "00000000-0000-0000-0000-000000000002")!, name: "Blue"),
    ]

    func entities(for identifiers: [UUID]) async throws -> [ColorEntity] {
        Self.colors.filter { identifiers.contains($0.id) }
    }

    func defaultResult() async -> ColorEntity? { Self.colors[1] }
}

struct PickColorIntent: WidgetConfigurationIntent {
    static let title: LocalizedStringResource = "Pick color"
    static let description = IntentDescription("Fills the widget with a color.")

    @Parameter(title: "Color") var color: ColorEntity
    @Parameter(title: "Opacity", default: 1.0) var opacity: Double

    init() {}
}

/// Resolves raw values the way an engine would: ids through the query, deleted ids and missing
/// values to the query's default.
func resolve<Intent: AppIntent>(_: Intent.Type, raw: [String: IntentParameterValue]) async throws -> Intent {
    let intent = Intent()
    for (name, parameter) in intent.parameters() {
        let value = raw[name]
        if let query = parameter.entityQuery() {
            var entity: ResolvedEntity?
            if case .entity(let id)? = value {
                entity = try await query.entities(forIdentifiers: [id]).first
            }
            if entity == nil {
                entity = await query.defaultResult()
            }
            try parameter.assign(entity: entity)
        } else {
            try parameter.assign(value)
        }
    }
    return intent
}

@Suite("Configuration resolution from Swift 6 code")
struct ConfigurationResolutionTests {
    @Test("raw JSON resolves into independent fresh intents, concurrently")
    func concurrentResolution() async throws {
        let json = #"[{"color": {"entity": "00000000-0000-0000-0000-000000000001"}, "opacity": 0.5}, {"color": {"entity": "deleted"}}]"#
        let configurations = try JSONDecoder().decode([[String: IntentParameterValue]].self, from: Data(json.utf8))
        let resolved = try await withThrowingTaskGroup(of: (Int, String, Double).self) { group in
            for (index, raw) in configurations.enumerated() {
                group.addTask {
                    let intent = try await resolve(PickColorIntent.self, raw: raw)
                    return (index, intent.color.name, intent.opacity)
                }
            }
            var results: [(Int, String, Double)] = []
            for try await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }
        }
        #expect(resolved.map(\.1) == ["Red", "Blue"])
        #expect(resolved.map(\.2) == [0.5, 1.0])
        #expect(PickColorIntent.intentDescriptionText == "Fills the widget with a color.")
    }

    @Test("a type error surfaces as ParameterValueError naming the parameter")
    func typeError() async throws {
        await #expect(throws: ParameterValueError.self) {
            _ = try await resolve(PickColorIntent.self, raw: ["opacity": .string("half")])
        }
    }

    @Test("a provider's timeline is reachable with the intent's values under a bound host")
    func providerUnderHost() async throws {
        struct Host: WidgetCenterHost {
            func reloadTimelines(ofKind kind: String) {}
            func reloadAllTimelines() {}
            func currentConfigurations() async throws -> [WidgetInfo] {
                [WidgetInfo(kind: "Color", family: .systemSmall, id: "w1", configurationIntent: PickColorIntent())]
            }
        }
        let widgets = try await HostContext.withBinding(Host()) {
            try await WidgetCenter.shared.currentConfigurations()
        }
        #expect(widgets.first?.widgetConfigurationIntent(of: PickColorIntent.self)?.opacity == 1.0)
    }
}
