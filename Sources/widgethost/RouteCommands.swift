import DeepLinks
import Foundation
import WidgetHostCommandLine
import WidgetHostServer

/// `widgethost route ...` and `widgethost routes ...`: match, lint, explain and build deep links
/// against the route table in `Routes/`.
enum RouteCommands {
    static let usage = """
    usage:
      widgethost route <url> [--all] [--json] [--source widgetURL|link] [--family NAME] [--routes DIR]
          Route one URL, its bytes as given (not UTF-8: no match, with the byte); exit 0 when a route
          matches, 1 when none does. --all: every route that takes it, in the order routing tries them
          (what a declining handler falls through to), the winner first.
      widgethost route - [--json] [--source widgetURL|link] [--family NAME] [--routes DIR]
          Route each line of standard input (a tap log, one URL a line), as bytes; one output line per
          input line: route<TAB>name=value... (% tab CR LF in values escaped), or -<TAB>reason; --json:
          one JSON object a line. Exit 0 when every line matched, 1 when some did not.
      widgethost routes lint [--routes DIR] [files...]
          Load and lint the table (default: every *.routes file of DIR); exit 1 on errors.
      widgethost routes explain <url> [--routes DIR]
          Show the candidate routes and why each failed or won.
      widgethost routes build <route-name> [key=value...] [--routes DIR]
          Build a URL; keys that are path parameters fill the pattern, others become the query.

    DIR defaults to ./Routes when it exists, else the repository's Routes/ directory.
    """

    /// Runs the command whose arguments follow `widgethost` (starting with `route` or `routes`).
    ///
    /// The URL of `route <url>` is routed as the bytes it is, as `route -` routes a line: bytes that are not UTF-8
    /// fail to route with the offset of the first (exit 1), rather than being repaired into U+FFFD and routed. Any
    /// other argument that is not UTF-8 is refused (exit 2) with its position and first bad byte.
    static func run(_ arguments: [CommandLineArgument]) -> Int32 {
        // An argument that is not UTF-8 parses as "" (neither an option nor `-`): only the URL's bytes are used.
        var options = Options(arguments: arguments.dropFirst().map { $0.text ?? "" })
        let url = arguments[0].text == "route" && options.positional.count == 1 ? arguments[options.positionalIndices[0] + 1] : nil
        if let refused = arguments.first(where: { $0.text == nil && $0.position != url?.position })?.notUTF8Message {
            printError("widgethost: \(refused)")
            return 2
        }
        if options.help || options.error != nil {
            if let error = options.error { printError("widgethost: \(error)") }
            print(usage)
            return options.error == nil ? 0 : 2
        }
        switch arguments[0].text {
        case "route":
            guard let url else { return usageError("route takes exactly one URL, or - for standard input") }
            if url.text == "-" {
                guard !options.all else { return usageError("--all takes one URL, not standard input") }
                guard let table = loadTable(options) else { return 2 }
                return RouteLines.run(table: table, context: TapContext(source: options.source, family: options.family),
                                      json: options.json)
            }
            return route(url, options: options)
        case "routes":
            let subcommand = options.positional.isEmpty ? "" : options.positional.removeFirst()
            switch subcommand {
            case "lint": return lint(options)
            case "explain":
                guard options.positional.count == 1 else { return usageError("explain takes exactly one URL") }
                return explain(options.positional[0], options: options)
            case "build":
                guard !options.positional.isEmpty else { return usageError("build needs a route name") }
                return build(options)
            default: return usageError("unknown routes subcommand `\(subcommand)`")
            }
        default:
            return usageError("expected `route` or `routes`")
        }
    }

    // MARK: - Subcommands

    private static func route(_ url: CommandLineArgument, options: Options) -> Int32 {
        guard let table = loadTable(options) else { return 2 }
        let context = TapContext(source: options.source, family: options.family)
        let result: Result<[RouteMatch], RoutingFailure>
        if !options.all {
            result = url.bytes.withUnsafeBufferPointer { table.withMatch(utf8: $0, context: context) { [$0.owned()] } }
        } else if let text = url.text {
            result = table.matches(text, context: context)
        } else if case let .failure(failure) = url.bytes.withUnsafeBufferPointer({ table.withMatch(utf8: $0, context: context) { _ in } }) {
            // Routed as bytes, no route takes the URL (it is not UTF-8 before any `#`, say): `matches` has none either.
            result = .failure(failure)
        } else {
            // A route takes it, so only the ignored fragment is not UTF-8; `matches` takes a `String`, which cannot hold it.
            printError("widgethost: --all takes a URL that is UTF-8 to its end; \(url.notUTF8Message ?? "")")
            return 2
        }
        if options.json {
            print(json(result, all: options.all))
        } else {
            switch result {
            case let .success(matches):
                print(matches.map(describe).joined(separator: "\n\n"))
            case let .failure(failure):
                print("no match: \(failure)")
            }
        }
        if case .success = result { return 0 }
        return 1
    }

    /// A match as `route`'s text output prints it.
    private static func describe(_ match: RouteMatch) -> String {
        var lines = ["route      \(match.routeName)", "target     \(match.target)"]
        for (name, value) in match.parameters.sorted(by: { $0.key < $1.key }) { lines.append("param      \(name)=\(value)") }
        for item in match.queryItems { lines.append("query      \(item.name)=\(item.value)") }
        lines.append("canonical  \(match.canonicalURL.string)")
        return lines.joined(separator: "\n")
    }

    private static func lint(_ options: Options) -> Int32 {
        var builder = RouteTableBuilder()
        if options.positional.isEmpty {
            builder.addDirectory(at: options.routesDirectory)
        } else {
            for file in options.positional { builder.addFile(at: file) }
        }
        let table: RouteTable
        do { table = try builder.build() } catch {
            print(error.description)
            print("\(error.errors.count) error(s): the table does not load")
            return 1
        }
        let report = table.lint()
        print(report.description)
        return report.hasErrors ? 1 : 0
    }

    private static func explain(_ url: String, options: Options) -> Int32 {
        guard let table = loadTable(options) else { return 2 }
        let explanation = table.explain(url, context: TapContext(source: options.source, family: options.family))
        print(explanation.description)
        return explanation.winner == nil ? 1 : 0
    }

    private static func build(_ options: Options) -> Int32 {
        guard let table = loadTable(options) else { return 2 }
        let name = options.positional[0]
        guard let route = table.route(named: name) else {
            printError("widgethost: no route named `\(name)`")
            return 1
        }
        let pathNames = Set(route.parameterNames)
        var parameters: [String: String] = [:]
        var query: [QueryItem] = []
        for pair in options.positional.dropFirst() {
            guard let equals = pair.firstIndex(of: "=") else { return usageError("expected key=value, found `\(pair)`") }
            let key = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...])
            if pathNames.contains(key) { parameters[key] = value } else { query.append(QueryItem(name: key, value: value)) }
        }
        do {
            print(try table.url(for: name, parameters: parameters, query: query))
            return 0
        } catch {
            printError("widgethost: \(error)")
            return 1
        }
    }

    // MARK: - Helpers

    private static func loadTable(_ options: Options) -> RouteTable? {
        do {
            return try RouteTable.load(directory: options.routesDirectory)
        } catch {
            printError(error.description)
            return nil
        }
    }

    /// `route --json`: the API's answer to `POST /v1/routes/match` (`V1.Match`), or with `--all` to
    /// `POST /v1/routes/matches` (`V1.MatchList`), on one line.
    private static func json(_ result: Result<[RouteMatch], RoutingFailure>, all: Bool) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data: Data?
        switch (result, all) {
        case (_, true): data = try? encoder.encode(V1.MatchList(result))
        case (.success(let matches), false): data = try? encoder.encode(V1.Match(matches[0]))
        case (.failure(let failure), false): data = try? encoder.encode(V1.Match(noMatch: failure.description))
        }
        return String(decoding: data ?? Data(), as: UTF8.self)
    }

    private static func usageError(_ message: String) -> Int32 {
        printError("widgethost: \(message)\n\(usage)")
        return 2
    }

    private static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// Parsed flags and positional arguments.
    private struct Options {
        var positional: [String] = []
        /// Where each of `positional` is in the arguments parsed.
        var positionalIndices: [Int] = []
        var json = false
        var all = false
        var help = false
        var routesDirectory = RoutesDirectory.defaultPath()
        var source: TapSource?
        var family: WidgetFamilyName?
        var error: String?

        init(arguments: [String]) {
            var remaining = arguments[...]
            while let argument = remaining.popFirst() {
                switch argument {
                case "--json": json = true
                case "--all": all = true
                case "--help", "-h": help = true
                case "--routes":
                    guard let value = remaining.popFirst() else { error = "--routes needs a directory"; return }
                    routesDirectory = value
                case "--source":
                    guard let value = remaining.popFirst(), let parsed = TapSource(rawValue: value) else {
                        error = "--source needs widgetURL or link"; return
                    }
                    source = parsed
                case "--family":
                    guard let value = remaining.popFirst(), let parsed = WidgetFamilyName(rawValue: value) else {
                        error = "--family needs a family name (\(WidgetFamilyName.allCases.map(\.rawValue).joined(separator: ", ")))"
                        return
                    }
                    family = parsed
                default:
                    positionalIndices.append(remaining.startIndex - 1)
                    positional.append(argument)
                }
            }
        }
    }

}
