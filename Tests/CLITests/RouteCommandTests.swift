import Foundation
import Testing

/// `widgethost route` and `widgethost routes lint|explain|build`, run as a user would, on the repository's `Routes/`
/// (the default when the current directory has no `Routes/`) and on tables written here.
@Suite("widgethost route and widgethost routes")
struct RouteCommandTests {
    /// A directory with one `.routes` file of `text`.
    static func routes(_ text: String) throws -> URL {
        let directory = try CommandRunner.temporaryDirectory()
        try text.write(to: directory.appendingPathComponent("app.routes"), atomically: true, encoding: .utf8)
        return directory
    }

    static let overlapping = """
        route task.detail
            pattern  myapp://task/(?<id>[0-9]+)
            target   Task
            example  myapp://task/1
        route task.any
            pattern  myapp://task/(?<rest>.+)
            target   Anything
            example  myapp://task/a/b
        """

    @Test("route: text and JSON, a tap context, no route (exit 1)")
    func route() async throws {
        let text = try await CommandRunner.run(["route", "MYAPP://task/task-42/?source=stack"])
        #expect(text.status == 0, "stderr: \(text.standardError)")
        #expect(text.standardOutput.contains("route      task.detail\n"))
        #expect(text.standardOutput.contains("param      id=task-42\n"))
        #expect(text.standardOutput.contains("query      source=stack\n"))
        #expect(text.standardOutput.contains("canonical  myapp://task/task-42?source=stack\n"))

        let json = try await CommandRunner.run(["route", "myapp://delivery/ORD-1234/courier", "--json", "--source", "link"])
        #expect(json.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect(object?["matched"] as? Bool == true)
        #expect(object?["route"] as? String == "delivery.courier")
        #expect(object?["parameters"] as? [String: String] == ["orderId": "ORD-1234"])

        // The courier route takes Link taps only.
        let refused = try await CommandRunner.run(["route", "myapp://delivery/ORD-1234/courier", "--source", "widgetURL"])
        #expect(refused.status == 1)
        #expect(refused.standardOutput.hasPrefix("no match: no route matches"))
        let invalid = try await CommandRunner.run(["route", "myapp://task/%zz", "--json"])
        #expect(invalid.status == 1)
        #expect((try JSONSerialization.jsonObject(with: Data(invalid.standardOutput.utf8)) as? [String: Any])?["matched"] as? Bool == false)
        #expect(try await CommandRunner.run(["route"]).status == 2)
        #expect(try await CommandRunner.run(["route", "myapp://x", "--source", "carrier-pigeon"]).status == 2)
    }

    @Test("route --all: every route that takes the URL, the winner first, in text and JSON")
    func routeAll() async throws {
        let directory = try Self.routes(Self.overlapping)
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try await CommandRunner.run(["route", "myapp://task/7", "--all", "--routes", directory.path])
        #expect(text.status == 0, "stderr: \(text.standardError)")
        #expect(text.standardOutput.components(separatedBy: "\n\n").map { $0.split(separator: "\n").first } == [
            "route      task.detail", "route      task.any"])
        let json = try await CommandRunner.run(["route", "myapp://task/7", "--all", "--json", "--routes", directory.path])
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        let matches = try #require(object?["matches"] as? [[String: Any]])
        #expect(matches.map { $0["route"] as? String } == ["task.detail", "task.any"])
        #expect(matches.map { $0["parameters"] as? [String: String] } == [["id": "7"], ["rest": "7"]])
        // Without --all, only the winner.
        let one = try await CommandRunner.run(["route", "myapp://task/7", "--routes", directory.path])
        #expect(!one.standardOutput.contains("task.any"))
    }

    @Test("route -: every line of standard input as bytes, one output line each, in text and JSON")
    func routeLines() async throws {
        let directory = try Self.routes(Self.overlapping)
        defer { try? FileManager.default.removeItem(at: directory) }
        var lines: [[UInt8]] = [
            Array("myapp://task/7".utf8), Array("MYAPP://task/a%09b%25c/".utf8), Array("myapp://nowhere/1".utf8),
            Array("myapp://task/".utf8) + [0xFF], [], Array("myapp://task/8\r".utf8),
            Array(repeating: UInt8(ascii: "x"), count: (1 << 20) + 10),
        ]
        let input = directory.appendingPathComponent("taps.txt")
        // The last line has no newline.
        lines.append(Array("myapp://task/9".utf8))
        try Data(lines.joined(separator: [UInt8(ascii: "\n")])).write(to: input)

        let text = try await CommandRunner.run(["route", "-", "--routes", directory.path], input: input)
        #expect(text.status == 1, "stderr: \(text.standardError)")
        #expect(text.standardOutput.split(separator: "\n", omittingEmptySubsequences: false) == [
            "task.detail\tid=7", "task.any\trest=a%09b%25c", "-\tno route matches (0 candidates tried)",
            "-\tinvalid URL: the URL is not UTF-8 at byte 13", "-\tinvalid URL: the URL is empty",
            "task.detail\tid=8", "-\tinvalid URL: the URL is 1048586 bytes long; the limit is 4096", "task.detail\tid=9", "",
        ])
        #expect(text.standardError == "routed 4 of 8 lines\n")

        let json = try await CommandRunner.run(["route", "-", "--json", "--routes", directory.path], input: input)
        #expect(json.status == 1)
        let objects = try json.standardOutput.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["line"] as? Int } == Array(1...8))
        #expect(objects.map { $0["matched"] as? Bool } == [true, true, false, false, false, true, false, true])
        #expect(objects[1]["parameters"] as? [String: String] == ["rest": "a\tb%c"])
        #expect(objects[1]["canonicalUrl"] as? String == "myapp://task/a%09b%25c")
        #expect(objects[3]["reason"] as? String == "invalid URL: the URL is not UTF-8 at byte 13")

        let clean = directory.appendingPathComponent("clean.txt")
        try Data("myapp://task/1\nmyapp://task/x?y=1\n".utf8).write(to: clean)
        let all = try await CommandRunner.run(["route", "-", "--source", "link", "--routes", directory.path], input: clean)
        #expect(all.status == 0, "stderr: \(all.standardError)")
        #expect(all.standardOutput == "task.detail\tid=1\ntask.any\trest=x\n")
        #expect(try await CommandRunner.run(["route", "-", "--all", "--routes", directory.path], input: clean).status == 2)

        // Values that JSON must escape (a quote, a backslash, a control character) read back as they were.
        let awkward = directory.appendingPathComponent("awkward.txt")
        try Data("myapp://task/q%22%5C%01%E2%9C%93\n".utf8).write(to: awkward)
        let escaped = try await CommandRunner.run(["route", "-", "--json", "--routes", directory.path], input: awkward)
        let object = try JSONSerialization.jsonObject(with: Data(escaped.standardOutput.utf8)) as? [String: Any]
        #expect(object?["parameters"] as? [String: String] == ["rest": "q\"\\\u{01}✓"])
        let line = try await CommandRunner.run(["route", "-", "--routes", directory.path], input: awkward)
        #expect(line.standardOutput == "task.any\trest=q\"\\\u{01}✓\n")
    }

    @Test("routes lint: the default table is clean; a shadowed example is an error at its line and column (exit 1)")
    func lint() async throws {
        let clean = try await CommandRunner.run(["routes", "lint"])
        #expect(clean.status == 0, "\(clean.standardOutput)")
        #expect(clean.standardOutput.contains("0 error(s), 0 warning(s)"))

        let directory = try Self.routes(Self.overlapping + "\n    example  myapp://task/2\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("app.routes").path
        let shadowed = try await CommandRunner.run(["routes", "lint", file])
        #expect(shadowed.status == 1)
        #expect(shadowed.standardOutput.contains(
            "\(file):9:14: error: example myapp://task/2 of route `task.any` is taken by earlier route `task.detail`"))
        #expect(shadowed.standardOutput.contains("[example-shadowed]"))

        let broken = try Self.routes("route broken\n    pattern  myapp://x/(?<id>[0-9]+\n    target   X\n    example  myapp://x/1\n")
        defer { try? FileManager.default.removeItem(at: broken) }
        let unloadable = try await CommandRunner.run(["routes", "lint", "--routes", broken.path])
        #expect(unloadable.status == 1)
        #expect(unloadable.standardOutput.contains("app.routes:2:"))
        #expect(unloadable.standardOutput.contains("the table does not load"))
    }

    @Test("routes explain names the winner and why the others failed; routes build makes a URL that routes back")
    func explainAndBuild() async throws {
        let directory = try Self.routes(Self.overlapping)
        defer { try? FileManager.default.removeItem(at: directory) }
        let explained = try await CommandRunner.run(["routes", "explain", "myapp://task/x", "--routes", directory.path])
        #expect(explained.status == 0)
        #expect(explained.standardOutput.contains("1. task.detail"))
        #expect(explained.standardOutput.contains("-> pattern does not match"))
        #expect(explained.standardOutput.contains("result     task.any"))
        #expect(try await CommandRunner.run(["routes", "explain", "myapp://nowhere", "--routes", directory.path]).status == 1)

        let built = try await CommandRunner.run(["routes", "build", "task.any", "rest=a b/ü?", "tag=x", "--routes", directory.path])
        #expect(built.status == 0, "stderr: \(built.standardError)")
        let url = built.standardOutput.trimmingCharacters(in: .newlines)
        #expect(url == "myapp://task/a%20b%2F%C3%BC%3F?tag=x")
        let routed = try await CommandRunner.run(["route", url, "--json", "--routes", directory.path])
        let object = try JSONSerialization.jsonObject(with: Data(routed.standardOutput.utf8)) as? [String: Any]
        #expect(object?["route"] as? String == "task.any")
        #expect(object?["parameters"] as? [String: String] == ["rest": "a b/ü?"])
        #expect((object?["query"] as? [[String: String]]) == [["name": "tag", "value": "x"]])
        // A value the route's group cannot take: named with the group's pattern, and nothing is printed.
        let refused = try await CommandRunner.run(["routes", "build", "project.detail", "id=proj launch"])
        #expect(refused.status == 1)
        #expect(refused.standardOutput.isEmpty)
        #expect(refused.standardError.contains(#"parameter `id`: the route's group `[A-Za-z0-9_-]+` does not take the value "proj launch""#))
        // A query value its query rule does not take: named with the rule's pattern, and nothing is printed.
        let badQuery = try await CommandRunner.run(["routes", "build", "task.detail", "id=task-42", "source=fridge"])
        #expect(badQuery.status == 1)
        #expect(badQuery.standardOutput.isEmpty)
        #expect(badQuery.standardError == """
            widgethost: query parameter `source`: the route's query rule `(homescreen|lockscreen|stack)` does not take the value "fridge"

            """)
        let unknown = try await CommandRunner.run(["routes", "build", "nope"])
        #expect(unknown.status == 1)
        #expect(unknown.standardError.contains("no route named `nope`"))
    }

    static let files = """
        route files
            pattern  myapp://files/(?<path>.+)
            target   Files
            example  myapp://files/a
        """

    @Test("route URL routes the argument's bytes as route - routes a line: not UTF-8 is refused alike, not repaired")
    func routeArgumentBytes() async throws {
        let directory = try Self.routes(Self.files)
        defer { try? FileManager.default.removeItem(at: directory) }
        let options = ["--routes", directory.path].map { Array($0.utf8) }
        let notUTF8 = Array("myapp://files/".utf8) + [0xFF]
        let input = directory.appendingPathComponent("line.txt")
        try Data(notUTF8 + [UInt8(ascii: "\n")]).write(to: input)
        let line = try await CommandRunner.run(["route", "-", "--json", "--routes", directory.path], input: input)
        let lineObject = try #require(try JSONSerialization.jsonObject(with: Data(line.standardOutput.utf8)) as? [String: Any])
        #expect(lineObject["reason"] as? String == "invalid URL: the URL is not UTF-8 at byte 14")

        let json = try await CommandRunner.run(bytes: [Array("route".utf8), Array("--json".utf8), notUTF8] + options)
        #expect(json.status == line.status)
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["matched"] as? Bool == false)
        #expect(object["reason"] as? String == lineObject["reason"] as? String)
        #expect(object["route"] == nil)
        let text = try await CommandRunner.run(bytes: [Array("route".utf8), notUTF8] + options)
        #expect(text.status == 1)
        #expect(text.standardOutput == "no match: invalid URL: the URL is not UTF-8 at byte 14\n")
        let all = try await CommandRunner.run(bytes: [Array("route".utf8), Array("--all".utf8), notUTF8] + options)
        #expect(all.status == 1)
        #expect(all.standardOutput == "no match: invalid URL: the URL is not UTF-8 at byte 14\n")

        // UTF-8 beyond ASCII is routed as it is, given as text or as its bytes.
        for run in [try await CommandRunner.run(["route", "--json", "myapp://files/café/ü", "--routes", directory.path]),
                    try await CommandRunner.run(bytes: [Array("route".utf8), Array("--json".utf8), Array("myapp://files/café/ü".utf8)] + options)] {
            #expect(run.status == 0, "stderr: \(run.standardError)")
            let routed = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
            #expect(routed["route"] as? String == "files")
            #expect(routed["parameters"] as? [String: String] == ["path": "café/ü"])
        }
        // The fragment is ignored, so bytes there that are not UTF-8 route, as in a line of route -.
        let fragment = try await CommandRunner.run(bytes: [Array("route".utf8), Array("myapp://files/a#".utf8) + [0xFF]] + options)
        #expect(fragment.status == 0, "stderr: \(fragment.standardError)")
        #expect(fragment.standardOutput == "route      files\ntarget     Files\nparam      path=a\ncanonical  myapp://files/a\n")
        // --all lists matches of a `String`, which cannot hold those bytes: refused, with where they are.
        let allFragment = try await CommandRunner.run(bytes: [Array("route".utf8), Array("--all".utf8),
                                                              Array("myapp://files/a#".utf8) + [0xFF]] + options)
        #expect(allFragment.status == 2)
        #expect(allFragment.standardError.contains(#"argument 3 is not UTF-8 at byte 16: myapp://files/a#\xFF"#))
    }
}
