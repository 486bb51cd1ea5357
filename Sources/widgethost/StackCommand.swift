import Foundation
import JSON
import WidgetHost
import WidgetHostCommandLine
import WidgetHostServer
import WidgetKit

/// `widgethost stack ...`: create, list, delete and rank Smart Stacks of the demo engine.
enum StackCommand {
    static let usage = """
        usage:
          widgethost stack create <name> <item>... [--data-dir DIR]
              Create a stack. An item is a placed instance id, or ID=Kind/family[?param=value&...] to place a
              demo widget first (e.g. p1=ProjectProgress/systemSmall?project=proj-launch).
          widgethost stack rank <name> [--at T] [--json] [--data-dir DIR]
              Rank the stack at T (ISO 8601; default now): the top, why, and each instance's score parts.
          widgethost stack list [--json] [--data-dir DIR]
          widgethost stack delete <name> [--data-dir DIR]
        """

    static func run(_ arguments: [String]) -> Int32 {
        let options: Options
        do {
            options = try Options(arguments, valued: ["data-dir", "at"], flags: ["json", "help"])
        } catch {
            printError("widgethost stack: \(error.message)\n\(usage)")
            return ExitCode.usage
        }
        var positional = options.positional
        guard !options.has("help"), !positional.isEmpty else {
            print(usage)
            return options.has("help") ? ExitCode.success : ExitCode.usage
        }
        let subcommand = positional.removeFirst()
        var at: Date?
        if let text = options["at"] {
            do {
                at = try Options.date(text, option: "at")
            } catch {
                printError("widgethost stack: \(error)")
                return ExitCode.usage
            }
        }
        let dataDirectory = options.dataDirectory
        let json = options.has("json")
        switch subcommand {
        case "create" where positional.count >= 1:
            let name = positional.removeFirst()
            let items = positional
            return execute { try await create(name, items: items, dataDirectory: dataDirectory) }
        case "rank" where positional.count == 1:
            let name = positional[0]
            let instant = at
            return execute {
                let ranking = try await DemoEngine.open(dataDirectory: dataDirectory).rankStack(name, at: instant)
                return json ? JSONOutput.text(V1.StackRanking(ranking)) : StackText.ranking(ranking)
            }
        case "list" where positional.isEmpty:
            return execute {
                let stacks = try await DemoEngine.open(dataDirectory: dataDirectory).stacks()
                return json ? JSONOutput.text(V1.StackList(stacks))
                    : stacks.map { "\($0.id): \($0.instanceIDs.joined(separator: ", "))" }.joined(separator: "\n")
            }
        case "delete" where positional.count == 1:
            let name = positional[0]
            return execute {
                try await DemoEngine.open(dataDirectory: dataDirectory).deleteStack(name)
                return "deleted stack \(name)"
            }
        default:
            printError("widgethost stack: unknown or incomplete subcommand '\(subcommand)'\n\(usage)")
            return ExitCode.usage
        }
    }

    private static func create(_ name: String, items: [String], dataDirectory: URL) async throws -> String {
        let engine = try DemoEngine.open(dataDirectory: dataDirectory)
        var ids: [String] = []
        for item in items {
            guard let equals = item.firstIndex(of: "=") else {
                ids.append(item)
                continue
            }
            let id = String(item[..<equals])
            let spec = try PlacementSpec(String(item[item.index(after: equals)...]))
            if (try? await engine.instance(id: id)) == nil {
                try await engine.place(kind: spec.kind, family: spec.family, parameters: spec.parameters, id: id)
            }
            ids.append(id)
        }
        let stack = try await engine.createStack(name, instanceIDs: ids)
        return "created stack \(stack.id): \(stack.instanceIDs.joined(separator: ", "))"
    }

    /// Runs the work, prints its text, and maps errors to exit codes (3: data, usage errors are caught earlier).
    private static func execute(_ work: @escaping @Sendable () async throws -> String) -> Int32 {
        switch Blocking.run(work) {
        case .success(let text):
            print(text)
            return ExitCode.success
        case .failure(let error as SmartStackError):
            printError("widgethost stack: \(error)")
            return ExitCode.problemFound
        case .failure(let error as EngineError):
            printError("widgethost stack: \(error)")
            return ExitCode.problemFound
        case .failure(let error as PlacementSpec.Failure):
            printError("widgethost stack: \(error.message)")
            return ExitCode.usage
        case .failure(let error):
            printError("widgethost stack: \(error)")
            return ExitCode.dataError
        }
    }
}

/// `Kind/family[?param=value&...]`: a widget to place from the command line. Values `true`/`false` are booleans,
/// integers are integers, anything else is a string (entity ids are strings).
struct PlacementSpec {
    struct Failure: Error {
        let message: String
    }

    let kind: String
    let family: WidgetFamily
    let parameters: [String: JSONValue]

    init(_ text: String) throws {
        let (head, query) = text.firstIndex(of: "?").map { (String(text[..<$0]), String(text[text.index(after: $0)...])) }
            ?? (text, "")
        let parts = head.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let family = WidgetFamily(rawValue: String(parts[1])), !parts[0].isEmpty else {
            throw Failure(message: "expected Kind/family[?param=value], got '\(text)'")
        }
        var parameters: [String: JSONValue] = [:]
        for pair in query.split(separator: "&") {
            let pieces = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard pieces.count == 2 else { throw Failure(message: "expected param=value, got '\(pair)'") }
            switch pieces[1] {
            case "true": parameters[pieces[0]] = .bool(true)
            case "false": parameters[pieces[0]] = .bool(false)
            default: parameters[pieces[0]] = Int(pieces[1]).map(JSONValue.int) ?? .string(pieces[1])
            }
        }
        kind = String(parts[0])
        self.family = family
        self.parameters = parameters
    }
}
