import DemoWidgets
import Foundation
import JSON
import SharedState
import WidgetHost
import WidgetHostCommandLine
import WidgetHostServer

/// `widgethost controls ...`: the demo's controls (Control Center, Lock Screen, Action button) over the demo engine's
/// data, as `/v1/control-kinds` and `/v1/controls` serve them.
enum ControlsCommand {
    static let usage = """
        usage:
          widgethost controls kinds [--json]                  the control kinds: toggle or button, configuration
          widgethost controls list [--json]                   placed controls and the value each shows
          widgethost controls place <kind> [--id ID] [--config name=value ...] [--json]
              Place a control (a configurable kind takes its configuration, e.g. --config project=proj-launch).
          widgethost controls remove <id>
          widgethost controls toggle <id> on|off [--dry-run] [--key KEY] [--json]
          widgethost controls press <id> [--dry-run] [--key KEY] [--json]
              Perform the control's intent in one transaction, then read its value again and the controls the
              intent asked ControlCenter for. --key: an idempotency key (a retry replays the first outcome).
          widgethost controls reloads [--json]                every read of a control's value, oldest first
        common options: --data-dir DIR (default ./data, or $WIDGETHOST_DATA)
        """

    static func run(_ arguments: [String]) -> Int32 {
        let (configTexts, rest) = extractConfiguration(arguments)
        return DemoSubcommand.run(
            "controls", usage: usage, rest, valued: ["id", "key"], flags: ["dry-run"],
            prepare: { subcommand, positional, options in
                try command(subcommand, positional, options, configuration: try configuration(configTexts))
            },
            execute: { directory, work in try await Opened.run(directory, work) },
            refusal: { error in
                switch error {
                case let error as ControlError: "\(error)"
                case let error as IntentError: "\(error)"
                default: nil
                }
            })
    }

    /// Splits `--config name=value` (or `--config=name=value`) pairs from the other arguments.
    private static func extractConfiguration(_ arguments: [String]) -> (configuration: [String], rest: [String]) {
        var configuration: [String] = []
        var rest: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--config", index + 1 < arguments.count {
                configuration.append(arguments[index + 1])
                index += 2
                continue
            }
            if argument.hasPrefix("--config=") {
                configuration.append(String(argument.dropFirst("--config=".count)))
            } else {
                rest.append(argument)
            }
            index += 1
        }
        return (configuration, rest)
    }

    /// `--config name=value` pairs; values read as JSON when they parse (numbers, true/false), else as text.
    private static func configuration(_ texts: [String]) throws -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for text in texts {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw OptionError(message: "--config needs name=value, got '\(text)'")
            }
            let name = String(text[..<equals])
            let raw = String(text[text.index(after: equals)...])
            guard values[name] == nil else { throw OptionError(message: "--config \(name) is given twice") }
            switch raw {
            case "true": values[name] = .bool(true)
            case "false": values[name] = .bool(false)
            default: values[name] = Int(raw).map { .int($0) } ?? .string(raw)
            }
        }
        return values
    }

    /// The work `subcommand` does, with every argument read first, so a bad one changes nothing.
    private static func command(_ subcommand: String, _ positional: [String], _ options: Options,
                                configuration: [String: JSONValue]) throws -> @Sendable (Opened) async throws -> String {
        let json = options.has("json")
        let dryRun = options.has("dry-run")
        let key = options["key"]
        guard configuration.isEmpty || subcommand == "place" else {
            throw OptionError(message: "--config is for place only")
        }
        switch (subcommand, positional.count) {
        case ("kinds", 0):
            return { opened in
                let kinds = opened.engine.controlCatalog.kinds
                return json ? JSONOutput.text(V1.ControlKindList(kinds))
                    : kinds.map(ControlText.kind).joined(separator: "\n")
            }
        case ("list", 0):
            return { opened in
                let controls = try await opened.engine.placedControls()
                if json { return JSONOutput.text(V1.ControlList(controls)) }
                return controls.isEmpty ? "no controls placed" : controls.map(ControlText.control).joined(separator: "\n")
            }
        case ("place", 1):
            let kind = positional[0]
            let id = options["id"]
            return { opened in
                let control = try await opened.engine.placeControl(kind: kind, id: id, configuration: configuration)
                return json ? JSONOutput.text(V1.Control(control)) : "placed " + ControlText.control(control)
            }
        case ("remove", 1):
            let id = positional[0]
            return { opened in
                try await opened.engine.removeControl(id: id)
                return "removed control \(id)"
            }
        case ("toggle", 2):
            let id = positional[0]
            let value: Bool
            switch positional[1] {
            case "on", "true": value = true
            case "off", "false": value = false
            default: throw OptionError(message: "toggle takes on or off, got '\(positional[1])'")
            }
            return { opened in
                let outcome = try await opened.runner.performControl(id: id, value: value, idempotencyKey: key,
                                                                     dryRun: dryRun)
                return json ? JSONOutput.text(V1.ControlOutcome(outcome)) : ControlText.outcome(outcome)
            }
        case ("press", 1):
            let id = positional[0]
            return { opened in
                let outcome = try await opened.runner.pressControl(id: id, idempotencyKey: key, dryRun: dryRun)
                return json ? JSONOutput.text(V1.ControlOutcome(outcome)) : ControlText.outcome(outcome)
            }
        case ("reloads", 0):
            return { opened in
                let reloads = try await opened.engine.controlReloads()
                if json { return JSONOutput.text(V1.ControlReloadList(reloads)) }
                return reloads.isEmpty ? "no control reloads" : reloads.map(ControlText.reload).joined(separator: "\n")
            }
        default:
            throw OptionError(message: "unknown subcommand or wrong arguments: controls \(subcommand)")
        }
    }

    /// The demo engine with its controls, and a runner over the demo container; reloads owed from an earlier
    /// process run before the work, and those the work ran are marked done before the process exits.
    struct Opened: Sendable {
        let engine: WidgetEngine
        let runner: IntentRunner

        static func run(_ dataDirectory: URL, _ work: @Sendable (Opened) async throws -> String) async throws -> String {
            let container = try DemoEngine.app.openContainer(dataDirectory: dataDirectory)
            let engine = WidgetEngine(catalog: DemoCatalog.make(), store: try EngineStore(directory: dataDirectory),
                                      containers: [container], controls: DemoCatalog.makeControls())
            let runner = try IntentRunner(engine: engine, intents: DemoCatalog.makeIntents(), container: container)
            _ = try await runner.startUpReloads()
            let text = try await work(Opened(engine: engine, runner: runner))
            await runner.markReloadsDone()
            return text
        }
    }
}

/// The plain-text lines of `widgethost controls`.
enum ControlText {
    static func kind(_ descriptor: ControlKindDescriptor) -> String {
        var line = "\(descriptor.kind)  \(descriptor.style.rawValue)  intent \(descriptor.intentName)"
        if let configuration = descriptor.configuration {
            line += "  configuration: " + configuration.parameters.map(\.name).joined(separator: ", ")
        }
        return line
    }

    static func control(_ control: ControlInstance) -> String {
        var line = "\(control.id)  \(control.kind)"
        if !control.configuration.isEmpty { line += "  " + JSONValue.object(control.configuration).canonicalText }
        if let value = control.value { line += "  value \(value.canonicalText)" }
        if let failure = control.lastFailure { line += "  last read failed: \(failure)" }
        return line
    }

    static func reload(_ reload: ControlReload) -> String {
        let at = reload.ranAt.formatted(Date.ISO8601FormatStyle())
        var line = "\(at)  \(reload.instanceID)  \(reload.reason.rawValue)"
        if let value = reload.value { line += "  value \(value.canonicalText)" }
        if let failure = reload.failure { line += "  failed: \(failure)" }
        return line
    }

    static func outcome(_ outcome: ControlOutcome) -> String {
        var lines = [OutcomeText.render(outcome.intent)]
        if let requested = outcome.intent.requestedControlReloads {
            lines.append("asked ControlCenter to reload: " + requested.joined(separator: ", "))
        }
        lines += outcome.reloads.map { "reloaded control " + reload($0) }
        if let value = outcome.value { lines.append("\(outcome.controlID) now shows \(value.canonicalText)") }
        return lines.joined(separator: "\n")
    }
}
