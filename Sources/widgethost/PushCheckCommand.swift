import DemoWidgets
import Foundation
import JSON
import Push
import WidgetHostCommandLine
import WidgetHostServer

/// `widgethost push check FILE`: every rule a push breaks (`Docs/push-checker.md`), its content state decoded as
/// the demo catalog's registered types decode it, as the engine's device does.
enum PushCheckCommand {
    static let usage = """
        usage:
          widgethost push check FILE|- [--attributes NAME] [--push-type liveactivity|widgets|controls] [--bundle-id ID]
                                       [--priority 5|10] [--channel ID] [--last-timestamp T] [--json]
              FILE holds the payload exactly as it will be sent (- reads stdin). The headers default to a Live
              Activity push to \(defaultBundle).push-type.liveactivity; --attributes checks the content state
              against that registered type only. Exit 0 when no finding is an error, 1 when one is, 2 bad usage.
        """

    static let defaultBundle = "com.example.widgethost"

    static func run(_ arguments: [String]) -> Int32 {
        let options: Options
        do {
            options = try Options(arguments, valued: ["attributes", "push-type", "bundle-id", "priority", "channel",
                                                      "last-timestamp"], flags: ["json", "help"])
        } catch {
            printError("widgethost push check: \(error.message)\n\(usage)")
            return ExitCode.usage
        }
        guard !options.has("help"), options.positional.count == 1 else {
            print(usage)
            return options.has("help") ? ExitCode.success : ExitCode.usage
        }
        let payload: Data
        let source = options.positional[0]
        do {
            payload = source == "-" ? FileHandle.standardInput.readDataToEndOfFile()
                : try Data(contentsOf: URL(fileURLWithPath: source))
        } catch {
            printError("widgethost push check: cannot read '\(source)': \(error.localizedDescription)")
            return ExitCode.dataError
        }
        let pushType = options["push-type"] ?? "liveactivity"
        var headers = ["apns-push-type": pushType,
                       "apns-topic": (options["bundle-id"] ?? defaultBundle) + ".push-type." + pushType]
        if let priority = options["priority"] { headers["apns-priority"] = priority }
        if let channel = options["channel"] { headers["apns-channel-id"] = channel }
        var types = DemoCatalog.make().activityTypes
        if let name = options["attributes"] {
            types = types.filter { $0.name == name }
            guard !types.isEmpty else {
                printError("widgethost push check: no attributes type is registered as '\(name)'")
                return ExitCode.usage
            }
        }
        let lastTimestamp: Date?
        do {
            lastTimestamp = try options["last-timestamp"].map { try Options.date($0, option: "last-timestamp") }
        } catch let error as OptionError {
            printError("widgethost push check: \(error.message)")
            return ExitCode.usage
        } catch {
            printError("widgethost push check: \(error)")
            return ExitCode.usage
        }
        let findings = PushChecker.check(headers: headers, payload: payload, types: types, lastTimestamp: lastTimestamp)
        if options.has("json") {
            print(JSONOutput.text(V1.PushCheckResult(findings)))
        } else {
            print(findings.isEmpty ? "ok: no finding" : findings.map(\.description).joined(separator: "\n"))
        }
        return findings.contains { $0.severity == .error } ? ExitCode.problemFound : ExitCode.success
    }
}
