import ActivityKit
import DemoWidgets
import Foundation
import JSON
import Push
import TapCharts
import WidgetHost
import WidgetHostCommandLine
import WidgetHostServer

/// `widgethost activities ...`: the Live Activities of the demo engine in the data directory, as the app and APNs
/// reach them (the same operations as `/v1/activities` and `/v1/device/push`, on the system clock).
enum ActivitiesCommand {
    static let usage = """
        usage:
          widgethost activities list [--type T] [--state S[,S...]] [--json] [--data-dir DIR]
          widgethost activities show <id> [--json]                 the activity and its history (ignored updates too)
          widgethost activities start --type T --attributes JSON --content JSON [--stale-date T]
                                      [--push none|token|channel] [--channel ID] [--json]
              --content is the content state (the ContentState's JSON).
          widgethost activities update <id> --content JSON [--stale-date T] [--json]
          widgethost activities end <id> [--content JSON] [--dismissal default|immediate|<RFC 3339 date>] [--json]
          widgethost activities push (--token HEX | --channel ID) --payload JSON|@file [--topic T] [--priority 5|10]
                                     [--json]
              Deliver an APNs payload as APNs would (topic default \(defaultTopic)).
          widgethost activities screen <id> [--at T] [--json]      what the Lock Screen showed at T (default now)
          widgethost activities rotate-token <id> [--json]
          widgethost activities chart <id> [--until T]             an SVG of the activity's life up to T (default now)
          widgethost activities types [--json]                     attributes types and their push-to-start tokens
          widgethost activities rotate-start-token --type T [--json]
        """

    /// The `apns-topic` a push gets when `--topic` is not given; the engine checks only the suffix unless it was
    /// told the app's bundle identifier.
    static let defaultTopic = "app.push-type.liveactivity"

    static func run(_ arguments: [String]) -> Int32 {
        DemoSubcommand.run(
            "activities", usage: usage, arguments,
            valued: ["type", "state", "attributes", "content", "stale-date", "push", "channel", "dismissal", "token",
                     "payload", "topic", "priority", "at", "until"],
            flags: [], prepare: command, open: { try DemoEngine.open(dataDirectory: $0).activities },
            refusal: { error in
                switch error {
                case let error as ActivityError: "\(error)"
                case let error as DevicePushError: "APNs would refuse the push (\(error.apnsReason)): \(error)"
                default: nil
                }
            })
    }

    /// The work `subcommand` does, with every argument read first, so a bad one changes nothing.
    private static func command(_ subcommand: String, _ positional: [String],
                                _ options: Options) throws -> @Sendable (LiveActivities) throws -> String {
        let json = options.has("json")
        func id() throws -> String {
            guard positional.count == 1 else { throw OptionError(message: "\(subcommand) takes one activity id") }
            return positional[0]
        }
        func none() throws {
            guard positional.isEmpty else { throw OptionError(message: "\(subcommand) takes no arguments") }
        }
        switch subcommand {
        case "list":
            try none()
            let type = options["type"]
            let states = try options["state"].map(states)
            return { activities in
                let records = try activities.activities(attributesType: type, states: states)
                return json ? JSONOutput.text(V1.ActivityList(records))
                    : records.map(ActivityLines.summary).joined(separator: "\n")
            }
        case "show":
            let id = try id()
            return { activities in
                let record = try activities.activity(id: id)
                let history = try activities.history(activityID: id)
                return json ? JSONOutput.text(V1.Activity(record, history: history))
                    : ([ActivityLines.summary(record)] + history.map(ActivityLines.event)).joined(separator: "\n")
            }
        case "start":
            try none()
            let request = try startRequest(options)
            return { activities in
                let record = try activities.start(request)
                return json ? JSONOutput.text(V1.Activity(record)) : "started " + ActivityLines.summary(record)
            }
        case "update":
            let id = try id()
            let content = try self.content(options, required: true)
            return { activities in
                try changed(activities, id, json: json,
                            try activities.update(activityID: id, content: content ?? ActivityContentValue(state: [:])))
            }
        case "end":
            let id = try id()
            let content = try self.content(options, required: false)
            let dismissal = try options["dismissal"].map(dismissal) ?? .default
            return { activities in
                try changed(activities, id, json: json,
                            try activities.end(activityID: id, content: content, dismissalPolicy: dismissal))
            }
        case "push":
            try none()
            let push = try devicePush(options)
            return { activities in
                let delivery = try activities.deliver(push)
                return json ? JSONOutput.text(V1.PushDelivery(delivery)) : ActivityLines.delivery(delivery)
            }
        case "screen":
            let id = try id()
            let at = try options["at"].map { try Options.date($0, option: "at") }
            return { activities in
                let screen = try activities.screen(activityID: id, at: at ?? Date())
                return json ? JSONOutput.text(V1.ActivityScreen(screen)) : ActivityLines.screen(screen)
            }
        case "rotate-token":
            let id = try id()
            return { activities in
                let token = try activities.rotateToken(activityID: id)
                return json ? JSONOutput.text(V1.RotatedToken(token)) : PushTokenText.hex(token)
            }
        case "chart":
            let id = try id()
            let until = try options["until"].map { try Options.date($0, option: "until") }
            return { activities in try ActivityChart.draw(activities, activityID: id, until: until ?? Date()) }
        case "types":
            try none()
            return { activities in
                let types = try activities.attributesTypes()
                let schemas = DemoCatalog.make().contentStateSchema
                return json ? JSONOutput.text(V1.ActivityTypeList(types, schemas: schemas)) : types.map { type in
                    type.name + "\t" + (type.pushToStartToken.map(PushTokenText.hex) ?? "(no push-to-start token yet)")
                }.joined(separator: "\n")
            }
        case "rotate-start-token":
            try none()
            guard let type = options["type"] else { throw OptionError(message: "rotate-start-token needs --type") }
            return { activities in
                let token = try activities.rotatePushToStartToken(attributesType: type)
                return json ? JSONOutput.text(V1.RotatedToken(token)) : PushTokenText.hex(token)
            }
        default:
            throw OptionError(message: "unknown or incomplete subcommand '\(subcommand)'")
        }
    }

    private static func changed(_ activities: LiveActivities, _ id: String, json: Bool,
                                _ outcome: ActivityUpdateOutcome) throws -> String {
        let record = try activities.activity(id: id)
        return json ? JSONOutput.text(V1.ActivityChangeResult(record, outcome: outcome))
            : ActivityLines.outcome(outcome) + "\n" + ActivityLines.summary(record)
    }

    private static func startRequest(_ options: Options) throws -> LiveActivities.StartRequest {
        guard let type = options["type"] else { throw OptionError(message: "start needs --type") }
        guard let attributes = options["attributes"] else { throw OptionError(message: "start needs --attributes") }
        let pushName = options["push"] ?? "none"
        guard let pushType = V1.ActivityPushType(rawValue: pushName) else {
            throw OptionError(message: "--push takes none, token or channel, got '\(pushName)'")
        }
        guard let push = pushType.subscription(channelID: options["channel"]) else {
            throw OptionError(message: "--channel and --push channel: \(V1.ActivityPushType.mismatch)")
        }
        return LiveActivities.StartRequest(
            attributesType: type, attributes: try jsonOption("attributes", attributes),
            content: try content(options, required: true) ?? ActivityContentValue(state: [:]), push: push)
    }

    private static func content(_ options: Options, required: Bool) throws -> ActivityContentValue? {
        guard let text = options["content"] else {
            if required { throw OptionError(message: "--content JSON is required") }
            return nil
        }
        let staleDate = try options["stale-date"].map { try Options.date($0, option: "stale-date") }
        return ActivityContentValue(state: try jsonOption("content", text), staleDate: staleDate)
    }

    private static func states(_ text: String) throws -> Set<ActivityState> {
        Set(try text.split(separator: ",").map { name in
            guard let state = ActivityState(rawValue: String(name)) else {
                throw OptionError(message: "--state takes \(ActivityState.allCases.map(\.rawValue)), got '\(name)'")
            }
            return state
        })
    }

    private static func dismissal(_ text: String) throws -> ActivityUIDismissalPolicy {
        switch text {
        case "default": .default
        case "immediate": .immediate
        default: .after(try Options.date(text, option: "dismissal"))
        }
    }

    private static func devicePush(_ options: Options) throws -> DevicePush {
        guard let payload = options["payload"] else { throw OptionError(message: "push needs --payload JSON|@file") }
        let bytes: Data
        if payload.hasPrefix("@") {
            do {
                bytes = try Data(contentsOf: URL(fileURLWithPath: String(payload.dropFirst())))
            } catch {
                throw OptionError(message: "cannot read the payload file '\(payload.dropFirst())': \(error)")
            }
        } else {
            bytes = Data(payload.utf8)
        }
        let token = try options["token"].map { text in
            guard let token = PushTokenText.token(text) else {
                throw OptionError(message: "--token takes hex digits (1 to 200 bytes), got '\(text)'")
            }
            return token
        }
        let priority = try options["priority"].map { text in
            guard text == "5" || text == "10" else { throw OptionError(message: "--priority takes 5 or 10") }
            return Int(text) ?? 10
        }
        return DevicePush(pushType: "liveactivity", topic: options["topic"] ?? defaultTopic, priority: priority,
                          channelID: options["channel"], deviceToken: token, payload: bytes)
    }

    private static func jsonOption(_ name: String, _ text: String) throws -> JSONValue {
        do {
            return try JSONValue(parsing: Data(text.utf8))
        } catch {
            throw OptionError(message: "--\(name) is not JSON: \(error)")
        }
    }
}
