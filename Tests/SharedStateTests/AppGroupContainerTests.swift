import Foundation
import Testing
@testable import SharedState

@Suite("AppGroupContainer")
struct AppGroupContainerTests {
    @Test(arguments: [
        ("", ContainerError.IdentifierProblem.empty),
        ("../x", .leadingDot),
        (".hidden", .leadingDot),
        ("..", .leadingDot),
        ("a/b", .forbiddenCharacter("/", byteOffset: 1)),
        ("group.a\\b", .forbiddenCharacter("\\", byteOffset: 7)),
        ("group. spaced", .forbiddenCharacter(" ", byteOffset: 6)),
        ("group.\u{7}bell", .forbiddenCharacter("\u{7}", byteOffset: 6)),
        ("group.nul\u{0}", .forbiddenCharacter("\u{0}", byteOffset: 9)),
        ("group.grüppe", .forbiddenCharacter("ü", byteOffset: 8)),
        ("group.😀", .forbiddenCharacter("😀", byteOffset: 6)),
        (String(repeating: "a", count: 241), .tooLong(byteCount: 241)),
    ])
    func badIdentifiersAreRefused(identifier: String, problem: ContainerError.IdentifierProblem) throws {
        try withTemporaryDirectory { directory in
            let error = #expect(throws: ContainerError.self) {
                _ = try AppGroupContainer(identifier: identifier, dataDirectory: directory)
            }
            #expect(error == .invalidIdentifier(identifier, problem))
            #expect(error?.description.contains("invalid App Group identifier") == true)
            #expect(throws: ContainerError.self) { _ = try AppGroupContainer.inMemory(identifier: identifier) }
            let created = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(created.isEmpty, "nothing is created for a refused identifier")
        }
    }

    @Test func errorDescriptionsNameTheProblem() {
        let bell = ContainerError.invalidIdentifier("a\u{7}", .forbiddenCharacter("\u{7}", byteOffset: 1))
        #expect(bell.description.contains("U+7"))
        #expect(bell.description.contains("byte 1"))
        let long = ContainerError.invalidIdentifier(String(repeating: "a", count: 300), .tooLong(byteCount: 300))
        #expect(long.description.contains("300 UTF-8 bytes"))
        #expect(long.description.contains("240"))
    }

    @Test(arguments: ["group.com.example.shared", "a", "group.Example-App_2", String(repeating: "b", count: 240)])
    func goodIdentifiersOpenAFileInTheDataDirectory(identifier: String) throws {
        try withTemporaryDirectory { directory in
            let nested = directory.appendingPathComponent("created/on/demand")
            let container = try AppGroupContainer(identifier: identifier, dataDirectory: nested)
            #expect(container.identifier == identifier)
            #expect(container.store.path == nested.appendingPathComponent(identifier + ".sqlite").path)
            #expect(FileManager.default.fileExists(atPath: container.store.path))
            container.suite().set("v", forKey: "k")
            #expect(container.suite().string(forKey: "k") == "v")
        }
    }

    @Test func stateSurvivesReopening() throws {
        try withTemporaryDirectory { directory in
            do {
                let container = try AppGroupContainer(identifier: "group.reopen", dataDirectory: directory)
                container.suite().set(Date(timeIntervalSinceReferenceDate: 1.5), forKey: "when")
                container.suite(named: "other").set(7, forKey: "n")
            }
            let reopened = try AppGroupContainer(identifier: "group.reopen", dataDirectory: directory)
            #expect(reopened.suite().value(forKey: "when") == .date(Date(timeIntervalSinceReferenceDate: 1.5)))
            #expect(reopened.suite(named: "other").integer(forKey: "n") == 7)
            #expect(reopened.suite(named: "group.reopen").value(forKey: "when") != nil, "the identifier names the standard suite")
            #expect(reopened.suite().value(forKey: "n") == nil, "suites are separate")
        }
    }
}
