import AppIntents
import Foundation
import JSON
import SharedState
import WidgetHost
import WidgetHostServer

/// `widgethost perform <IntentName> --param key=value … [--dry-run] [--json] [--data-dir DIR]
/// [--idempotency-key K] [--instance ID]`: performs one of the app's interactive intents on its container
/// (the demo's gets its fixtures on first use) and prints what it changed and reloaded.
package enum PerformCommand {
    static func usage(_ app: HostedApp) -> String {
        """
        usage: \(app.commandName) perform <IntentName> [--param name=value ...] [--dry-run] [--json]
                                  [--data-dir DIR] [--idempotency-key KEY] [--instance ID]

        Performs an interactive intent in one durable transaction of the App Group container and prints
        its result, the rows and keys it changed (before -> after) and the reloads it caused.
          --param name=value     a parameter; the value is read as the parameter's type (text, number, true/false)
          --dry-run              run it, report the changes and reloads it would cause, then roll back
          --json                 print the outcome as JSON
          --idempotency-key KEY  a retry with the same key returns the first outcome (keys expire after 24 h)
          --instance ID          the tapped widget instance, reloaded at once without spending its budget

        exit status: 0 performed, 1 the intent failed (nothing changed), 2 bad usage, 3 the data could not be opened
        """
    }

    package static func run(_ arguments: [String], app: HostedApp) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(usage(app) + "\n\nintents: " + app.intents().intents.map(\.name).joined(separator: ", "))
            return ExitCode.success
        }
        let (parameterTexts, rest) = extractParameters(arguments)
        let options: Options
        do {
            options = try Options(rest, valued: ["data-dir", "idempotency-key", "instance"], flags: ["dry-run", "json"])
        } catch {
            printError("\(app.commandName) perform: \(error.message)\n\n\(usage(app))")
            return ExitCode.usage
        }
        guard options.positional.count == 1, let intentName = options.positional.first else {
            printError(usage(app))
            return ExitCode.usage
        }
        let intents = app.intents()
        guard let descriptor = intents.descriptor(named: intentName) else {
            printError("\(app.commandName) perform: \(IntentError.unknownIntent(intentName, known: intents.intents.map(\.name)))")
            return ExitCode.usage
        }
        var parameters: [String: JSONValue] = [:]
        for text in parameterTexts {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                printError("\(app.commandName) perform: --param needs name=value, got '\(text)'")
                return ExitCode.usage
            }
            let name = String(text[..<equals])
            let kind = descriptor.parameters.first { $0.name == name }?.kind
            parameters[name] = value(String(text[text.index(after: equals)...]), as: kind)
        }
        let request = PerformRequest(intentName: intentName, parameters: parameters, instanceID: options["instance"],
                                     idempotencyKey: options["idempotency-key"], isDryRun: options.has("dry-run"))
        let runner: IntentRunner
        do {
            runner = try makeRunner(app, dataDirectory: options.dataDirectory, intents: intents)
        } catch {
            printError("\(app.commandName) perform: \(error)")
            return ExitCode.dataError
        }
        let result = Blocking.run {
            let outcome = try await runner.perform(request)
            // The process exits next: reloads left unmarked would run again at the next start.
            await runner.markReloadsDone()
            return outcome
        }
        switch result {
        case .success(let outcome):
            print(options.has("json") ? JSONOutput.text(V1.PerformOutcome(outcome)) : OutcomeText.render(outcome))
            return ExitCode.success
        case .failure(let error as IntentError):
            printError("\(app.commandName) perform: \(error)")
            switch error {
            case .unknownParameter, .missingParameter, .invalidParameter, .unknownEntity, .idempotencyKeyReused:
                return ExitCode.usage
            default:
                return ExitCode.problemFound
            }
        case .failure(let error as EngineError):
            printError("\(app.commandName) perform: \(error)")
            return ExitCode.usage
        case .failure(let error):
            printError("\(app.commandName) perform: \(error)")
            return ExitCode.dataError
        }
    }

    /// Splits `--param name=value` (or `--param=name=value`) pairs from the other arguments.
    static func extractParameters(_ arguments: [String]) -> (parameters: [String], rest: [String]) {
        var parameters: [String] = []
        var rest: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--param", index + 1 < arguments.count {
                parameters.append(arguments[index + 1])
                index += 2
                continue
            }
            if argument.hasPrefix("--param=") {
                parameters.append(String(argument.dropFirst("--param=".count)))
            } else {
                rest.append(argument)
            }
            index += 1
        }
        return (parameters, rest)
    }

    /// Reads command-line text as the parameter's type; text that does not parse stays a string, so the runner's
    /// error names the parameter and what it expected.
    static func value(_ text: String, as kind: IntentParameterKind?) -> JSONValue {
        switch kind {
        case .bool?:
            switch text.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: return .string(text)
            }
        case .int?: return Int(text).map(JSONValue.int) ?? .string(text)
        case .double?: return Double(text).map(JSONValue.double) ?? .string(text)
        default: return text == "null" && kind == nil ? .null : .string(text)
        }
    }

    /// The app's container under the data directory (prepared by the app), the engine store next to it.
    static func makeRunner(_ app: HostedApp, dataDirectory: URL, intents: IntentCatalog) throws -> IntentRunner {
        let container = try app.openContainer(dataDirectory: dataDirectory)
        let engine = WidgetEngine(catalog: app.catalog(), store: try EngineStore(directory: dataDirectory),
                                  containers: [container], controls: app.controls())
        return try IntentRunner(engine: engine, intents: intents, container: container)
    }
}
