import DemoWidgets
import Foundation
import SharedState
import WidgetHostCommandLine

/// `widgethost demo`: opens the default container (loading the fixtures on first start) and prints what it holds.
enum DemoCommand {
    static func run(_ arguments: [String]) -> Int32 {
        let options: Options
        do {
            options = try Options(arguments, valued: ["data-dir"], flags: [])
        } catch {
            printError("widgethost demo: \(error.message)")
            return ExitCode.usage
        }
        do {
            let container = try AppGroupContainer(identifier: DemoSchema.appGroup,
                                                  dataDirectory: options.dataDirectory)
            if try FixtureLoader.isEmpty(container) {
                try FixtureLoader.load(Fixtures(directory: Fixtures.bundledDirectory), into: container)
                print("loaded fixtures into \(container.store.path)")
            }
            let repository = try DemoRepository(container: container)
            print("container \(container.identifier) at \(container.store.path)")
            for project in try repository.allProjects() {
                let percent = Int((project.progress * 100).rounded())
                print("  \(project.id)  \(project.name)  \(project.completedCount)/\(project.taskCount) done (\(percent)%)")
            }
            print(try FixtureLoader.counts(in: container))
            return ExitCode.success
        } catch {
            printError("widgethost demo: \(error)")
            return ExitCode.dataError
        }
    }
}
