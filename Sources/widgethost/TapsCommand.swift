import DeepLinks
import Foundation
import TapCharts
import WidgetHost
import WidgetHostCommandLine
import WidgetHostServer

/// `widgethost taps ...`: record widget taps in the demo engine store and report on them.
enum TapsCommand {
    static let usage = """
        usage:
          widgethost taps record <url> (--instance ID | --kind K --family F) --source widgetURL|link
                                 [--location homeScreen|lockScreen|standBy] [--at T] [--data-dir DIR] [--routes DIR]
              Route and store one tap; prints its route (or none) and any diagnostic.
          widgethost taps report [--from T] [--to T] [--group-by route,kind,family,source,location,hour|day]
                                 [--time-zone TZ] [--csv | --json | --svg | --heatmap] [--data-dir DIR]
              Count taps in [from, to) by the given columns (default: route). hour/day buckets are local to
              --time-zone (default UTC). --svg draws taps per route over time (default bucket: day);
              --heatmap draws taps by hour and weekday.
          widgethost taps report --unmatched [--from T] [--to T] [--limit N] [--csv | --json] [--routes DIR]
              The most tapped URLs that matched no route, each with its nearest route.
        """

    static func run(_ arguments: [String]) -> Int32 {
        let options: Options
        do {
            options = try Options(arguments, valued: ["data-dir", "routes", "instance", "kind", "family", "source",
                                                      "location", "at", "from", "to", "group-by", "time-zone", "limit"],
                                  flags: ["csv", "json", "svg", "heatmap", "unmatched", "help"])
        } catch {
            printError("widgethost taps: \(error.message)\n\(usage)")
            return ExitCode.usage
        }
        guard !options.has("help"), let subcommand = options.positional.first else {
            print(usage)
            return options.has("help") ? ExitCode.success : ExitCode.usage
        }
        do {
            let output: String
            switch subcommand {
            case "record" where options.positional.count == 2:
                output = try record(options.positional[1], options)
            case "report" where options.positional.count == 1:
                output = try report(options)
            default:
                throw OptionError(message: "unknown or incomplete subcommand '\(subcommand)'")
            }
            // A CSV ends in CRLF, one Character that `hasSuffix("\n")` does not see: look at the last scalar.
            print(output, terminator: output.unicodeScalars.last == "\n" ? "" : "\n")
            return ExitCode.success
        } catch let error as OptionError {
            printError("widgethost taps: \(error.message)\n\(usage)")
            return ExitCode.usage
        } catch let error as TapError {
            printError("widgethost taps: \(error)")
            return ExitCode.problemFound
        } catch {
            printError("widgethost taps: \(error)")
            return ExitCode.dataError
        }
    }

    private static func tapStore(_ options: Options) throws -> TapStore {
        let directory = options["routes"] ?? RoutesDirectory.defaultPath()
        let table: RouteTable
        do { table = try RouteTable.load(directory: directory) } catch {
            throw OptionError(message: "the route table in \(directory) does not load:\n\(error.description)")
        }
        try FileManager.default.createDirectory(at: options.dataDirectory, withIntermediateDirectories: true)
        return TapStore(engineStore: try EngineStore(directory: options.dataDirectory), routes: table)
    }

    private static func record(_ url: String, _ options: Options) throws -> String {
        guard let source = options["source"].flatMap(TapSource.init(rawValue:)) else {
            throw OptionError(message: "--source needs widgetURL or link")
        }
        let location = try options["location"].map { text in
            guard let location = TapLocation(rawValue: text) else {
                throw OptionError(message: "--location needs homeScreen, lockScreen or standBy")
            }
            return location
        } ?? .homeScreen
        guard options["instance"] != nil || (options["kind"] != nil && options["family"] != nil) else {
            throw OptionError(message: "name the widget with --instance ID, or --kind K and --family F")
        }
        let tap = Tap(url: url, instanceID: options["instance"], kind: options["kind"], family: options["family"],
                      source: source, location: location, date: try date(options, "at") ?? Date())
        let recorded = try tapStore(options).record(tap)
        var text = "tap \(recorded.id): route \(recorded.route ?? "none (broken link)"), \(recorded.kind)/\(recorded.family)"
        if let diagnostic = recorded.diagnostic {
            text += "\nsuspicious: \(diagnostic.rawValue): \(diagnostic.message)"
        }
        return text
    }

    private static func report(_ options: Options) throws -> String {
        let taps = try tapStore(options)
        let from = try date(options, "from")
        let to = try date(options, "to")
        if options.has("unmatched") {
            let limit = try options["limit"].map { text in
                guard let value = Int(text), value > 0 else { throw OptionError(message: "--limit needs a count") }
                return value
            } ?? 20
            let unmatched = try taps.unmatchedURLs(from: from, to: to, limit: limit)
            if options.has("json") { return JSONOutput.text(V1.UnmatchedURLList(unmatched)) }
            if options.has("csv") { return unmatched.csv() }
            return TapText.unmatched(unmatched)
        }
        var query = TapReportQuery(from: from, to: to, dimensions: [])
        if let zone = options["time-zone"] {
            guard let timeZone = TimeZone(identifier: zone) else {
                throw OptionError(message: "unknown time zone '\(zone)'")
            }
            query.timeZone = timeZone
        }
        for name in (options["group-by"] ?? "route").split(separator: ",").map(String.init) {
            if let dimension = TapDimension(rawValue: name) {
                query.dimensions.append(dimension)
            } else if let bucket = TapTimeBucket(rawValue: name) {
                query.bucket = bucket
            } else {
                throw OptionError(message: "cannot group by '\(name)' (route, kind, family, source, location, hour, day)")
            }
        }
        if options.has("svg") {
            if !query.dimensions.contains(.route) { query.dimensions.insert(.route, at: 0) }
            query.bucket = query.bucket ?? .day
            return TapChart.timeSeries(try taps.report(query))
        }
        if options.has("heatmap") {
            query.bucket = .hour
            return TapChart.heatMap(try taps.report(query))
        }
        let report = try taps.report(query)
        if options.has("json") { return JSONOutput.text(V1.TapReport(report)) }
        if options.has("csv") { return report.csv() }
        return TapText.report(report)
    }

    private static func date(_ options: Options, _ name: String) throws -> Date? {
        guard let text = options[name] else { return nil }
        return try Options.date(text, option: name)
    }
}
