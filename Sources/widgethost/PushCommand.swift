import Foundation
import JSON
import PostgresStore
import Push
import WidgetHost
import WidgetHostCommandLine
import WidgetHostServer

/// `widgethost push ...`: the update planner of the demo engine's database, as `/v1/activities/{id}/states` and
/// `/v1/push/…` serve it (on the system clock).
enum PushCommand {
    static let usage = """
        usage:
          widgethost push submit <activity> --state JSON [--type T] [--frequent] [--json] [--data-dir DIR]
              Submit a content state to the planner (the type defaults to the engine's activity's).
          widgethost push decisions <activity> [--kind K[,K...]] [--json]   the planner's decisions, oldest first
          widgethost push outbox [--status pending|delivered|failed] [--activity ID] [--json]
              Planned pushes, pending first.
          widgethost push check FILE [--attributes NAME] [--json]   every rule a payload breaks (push check --help)
        \(sendUsage)
          --push-store URL (or --shared-store URL): the push store in this PostgreSQL database, as
              `widgethost serve --push-store` keeps it (Docs/postgres.md), instead of the engine's database
        """

    static func run(_ arguments: [String]) -> Int32 {
        let valued = Set(["state", "type", "kind", "status", "activity", "push-store", "shared-store"]).union(sendOptions)
        // Read here only to open the store; DemoSubcommand reports bad options.
        let parsed = try? Options(arguments, valued: valued.union(["data-dir"]),
                                  flags: ["frequent", "json", "help"])
        let shared = parsed?["push-store"] ?? parsed?["shared-store"]
        return DemoSubcommand.run(
            "push", usage: usage, arguments,
            valued: valued,
            flags: ["frequent"],
            prepare: { subcommand, positional, options in
                let work = try command(subcommand, positional, options)
                return { (target: (engine: WidgetEngine, store: PushStore)) in try work(target.engine, target.store) }
            },
            open: { directory in
                let engine = try DemoEngine.open(dataDirectory: directory)
                let clock = engine.clock
                let storage = try shared.map { PushDatabase.postgres(try PostgresPool(connectionString: $0)) }
                return (engine: engine, store: try PushStore(storage ?? .sqlite(engine.store.database),
                                                             now: { clock.now }))
            },
            refusal: { error in
                switch error {
                case let error as PushPlannerError: "\(error)"
                case let error as ActivityError: "\(error)"
                case let error as PushOutboxError: "\(error)"
                default: nil
                }
            })
    }

    /// The work `subcommand` does, with every argument read first, so a bad one changes nothing.
    private static func command(_ subcommand: String, _ positional: [String],
                                _ options: Options) throws -> @Sendable (WidgetEngine, PushStore) throws -> String {
        let json = options.has("json")
        switch subcommand {
        case "submit":
            guard positional.count == 1 else { throw OptionError(message: "submit takes one activity id") }
            let id = positional[0]
            guard let text = options["state"] else { throw OptionError(message: "submit needs --state JSON") }
            let state: JSONValue
            do {
                state = try JSONValue(parsing: text)
            } catch {
                throw OptionError(message: "--state is not JSON: \(error)")
            }
            let type = options["type"]
            let frequent = options.has("frequent")
            return { engine, store in
                let decision = try store.planner.submit(
                    activityID: id, attributesType: try type ?? engine.activities.activity(id: id).attributesType,
                    state: state, frequentPushes: frequent)
                return json ? JSONOutput.text(V1.PlannerDecision(decision)) : line(decision)
            }
        case "decisions":
            guard positional.count == 1 else { throw OptionError(message: "decisions takes one activity id") }
            let id = positional[0]
            let kinds = try options["kind"].map { text in
                Set(try text.split(separator: ",").map { name in
                    guard let kind = PlannerDecision.Kind(rawValue: String(name)) else {
                        throw OptionError(message: "--kind '\(name)' is not one of "
                                          + PlannerDecision.Kind.allCases.map(\.rawValue).joined(separator: ", "))
                    }
                    return kind
                })
            }
            return { _, store in
                let decisions = try store.planner.decisions(activityID: id, kinds: kinds)
                return json ? JSONOutput.text(V1.PlannerDecisionList(decisions))
                    : decisions.map(line).joined(separator: "\n")
            }
        case "send":
            return try send(positional, options)
        case "outbox":
            if positional.count == 1 { return try fate(positional[0], json: json) }
            guard positional.isEmpty else { throw OptionError(message: "outbox takes at most one apns-id") }
            let status = try options["status"].map { name in
                guard let status = OutboxPush.Status(rawValue: name) else {
                    throw OptionError(message: "--status '\(name)' is not pending, delivered or failed")
                }
                return status
            }
            let activity = options["activity"]
            return { _, store in
                let pushes = try store.outbox.pushes(status: status, activityID: activity)
                return json ? JSONOutput.text(V1.OutboxList(pushes, counts: try store.outbox.counts()))
                    : pushes.map(line).joined(separator: "\n")
            }
        default:
            throw OptionError(message: "unknown push command '\(subcommand)'")
        }
    }

    static func line(_ decision: PlannerDecision) -> String {
        let priority = decision.priority.map { " p\($0)" } ?? ""
        return "#\(decision.id) \(DateTimeText.string(from: decision.at)) \(decision.activityID) "
            + "\(decision.kind.rawValue)\(priority): \(decision.reason)"
    }

    static func line(_ push: OutboxPush) -> String {
        "\(push.apnsID.uuidString) \(push.status.rawValue) \(push.event.rawValue) p\(push.priority) \(push.activityID) "
            + "due \(DateTimeText.string(from: push.dueAt))" + (push.lastResult.map { " → \($0)" } ?? "")
    }
}
