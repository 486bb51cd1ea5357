import AppIntents
import Testing

@Suite("Localized strings")
struct LocalizedStringResourceTests {
    @Test("a literal is both key and text")
    func literal() {
        let resource: LocalizedStringResource = "Select project"
        #expect(resource.key == "Select project")
        #expect(resource.defaultValue == "Select project")
        #expect(String(localized: resource) == "Select project")
    }

    @Test("an interpolation keys with format specifiers and resolves the values")
    func interpolation() {
        let name = "Garden"
        let count = 3
        let ratio = 0.5
        let resource: LocalizedStringResource = "\(name) has \(count) tasks, \(ratio) done"
        #expect(resource.key == "%@ has %lld tasks, %lf done")
        #expect(resource.defaultValue == "Garden has 3 tasks, 0.5 done")
        #expect("\(resource)" == "Garden has 3 tasks, 0.5 done")
    }

    @Test("descriptions, dialogs and representations take literals and interpolations")
    func literalTypes() {
        let count = 2
        let description: IntentDescription = "Shows \(count) projects."
        #expect(description.descriptionText.defaultValue == "Shows 2 projects.")
        let dialog: IntentDialog = "\(count) tasks done"
        #expect(dialog.full.defaultValue == "2 tasks done")
        #expect(dialog.supporting == dialog.full)
        let representation: DisplayRepresentation = "Project \(count)"
        #expect(representation.title.defaultValue == "Project 2")
        let type: TypeDisplayRepresentation = "Project"
        #expect(type.name.key == "Project")
        #expect(LocalizedStringResource("greeting", defaultValue: "Hello").key == "greeting")
    }
}
