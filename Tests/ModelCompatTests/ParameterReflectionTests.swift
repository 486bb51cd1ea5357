import AppIntents
import Foundation
import Testing

@Suite("Parameter reflection")
struct ParameterReflectionTests {
    @Test("parameters are listed in declaration order with their property names")
    func declarationOrder() {
        let names = FilterTasksIntent().parameters().map(\.name)
        #expect(names == [
            "priority", "limit", "dueBefore", "minimumProgress", "link", "tag", "lowestPriority", "showOverdue",
        ])
        #expect(SelectProjectIntent().parameters().map(\.name) == ["project", "showCompleted"])
        #expect(CompleteTaskIntent().parameters().map(\.name) == ["taskID"])
        #expect(CountCompletedIntent().parameters().isEmpty)
    }

    @Test("kinds, optionality, titles and defaults come from the declarations")
    func declarations() throws {
        let declarations = FilterTasksIntent.parameterDeclarations
        let byName = Dictionary(uniqueKeysWithValues: declarations.map { ($0.name, $0) })

        let priority = try #require(byName["priority"])
        #expect(priority.title == "Priority")
        #expect(priority.isOptional == false)
        #expect(priority.defaultValue == .enumCase("high"))
        guard case .enumeration(let enumeration) = priority.kind else {
            Issue.record("priority is \(priority.kind)")
            return
        }
        #expect(enumeration.typeName == "TaskPriority")
        #expect(enumeration.displayName == "Priority")
        #expect(enumeration.cases.map(\.rawValue) == ["low", "normal", "high"])
        #expect(enumeration.cases.map(\.title) == ["Low", "Normal", "High"])

        #expect(byName["limit"]?.kind == .int)
        #expect(byName["limit"]?.defaultValue == .int(5))
        #expect(byName["limit"]?.descriptionText == "How many tasks to show.")
        #expect(byName["dueBefore"]?.kind == .date)
        #expect(byName["dueBefore"]?.isOptional == true)
        #expect(byName["dueBefore"]?.defaultValue == nil)
        #expect(byName["minimumProgress"]?.kind == .double)
        #expect(byName["minimumProgress"]?.defaultValue == .double(0.5))
        #expect(byName["link"]?.kind == .url)
        #expect(byName["tag"]?.kind == .string)
        #expect(byName["lowestPriority"]?.isOptional == true)
        #expect(byName["showOverdue"]?.kind == .bool)
        #expect(byName["showOverdue"]?.defaultValue == .bool(false))

        let project = try #require(SelectProjectIntent.parameterDeclarations.first)
        #expect(project.kind == .entity(typeName: "ProjectEntity"))
        #expect(project.isOptional)
    }

    @Test("current values: defaults, null for empty optionals, nil for unset required values")
    func currentValues() throws {
        let intent = FilterTasksIntent()
        #expect(intent.parameter(named: "priority")?.currentValue == .enumCase("high"))
        #expect(intent.parameter(named: "dueBefore")?.currentValue == .null)
        #expect(CompleteTaskIntent().parameter(named: "taskID")?.currentValue == nil)
        #expect(CompleteTaskIntent(taskID: "t9").parameter(named: "taskID")?.currentValue == .string("t9"))
    }

    @Test("intent type metadata: title and description, empty description is nil")
    func intentMetadata() {
        #expect(SelectProjectIntent.intentTitle == "Select project")
        #expect(SelectProjectIntent.intentDescriptionText == "Shows a project's progress.")
        #expect(CountCompletedIntent.intentDescriptionText == "Says how many tasks are done.")
        #expect(CompleteTaskIntent.intentDescriptionText == nil)
        #expect(SelectProjectIntent.persistentIdentifier == "SelectProjectIntent")
        #expect(SelectProjectIntent.isDiscoverable)
        #expect(SelectProjectIntent.openAppWhenRun == false)
    }

    @Test("declarations encode to JSON and back")
    func declarationsRoundTrip() throws {
        let declarations = FilterTasksIntent.parameterDeclarations
        let data = try JSONEncoder().encode(declarations)
        #expect(try JSONDecoder().decode([IntentParameterDeclaration].self, from: data) == declarations)
    }

    @Test("parameters of a fresh intent are independent; copies share them")
    func freshIntentsAreIndependent() {
        let first = SelectProjectIntent()
        let copy = first
        first.showCompleted = false
        #expect(copy.showCompleted == false)
        #expect(SelectProjectIntent().showCompleted == true)
    }
}
