import Foundation
import JSON
import Push
import WidgetHost
import WidgetHostCommandLine
import WidgetHostServer

/// `widgethost push send` and `widgethost push outbox <apns-id>`: a push of one's own into the outbox, and one push's
/// fate, as `POST /v1/push/outbox` and `GET /v1/push/outbox/{apnsId}` do.
extension PushCommand {
    static let sendUsage = """
          widgethost push send --token HEX --payload JSON [--type liveactivity|widgets] [--priority 5|10]
                               [--expiration SECONDS] [--collapse-id ID] [--apns-id UUID] [--activity ID] [--json]
              Queue a push of your own; a daemon running with --apns-* on the same data directory sends it.
          widgethost push outbox <apns-id> [--json]   one push's fate: pending, delivered, or failed with the reason
        """

    static let sendOptions: Set<String> = ["token", "payload", "priority", "expiration", "collapse-id", "apns-id"]

    /// The `send` work, every argument checked first.
    static func send(_ positional: [String], _ options: Options) throws -> @Sendable (WidgetEngine, PushStore) throws -> String {
        guard positional.isEmpty else { throw OptionError(message: "send takes no arguments") }
        guard let tokenText = options["token"], let token = PushTokenText.token(tokenText) else {
            throw OptionError(message: "send needs --token with the device token in hex")
        }
        guard let payloadText = options["payload"] else { throw OptionError(message: "send needs --payload JSON") }
        guard case .object? = try? JSONValue(parsing: payloadText) else {
            throw OptionError(message: "--payload is not a JSON object")
        }
        guard let type = PushHeaders.PushType(rawValue: options["type"] ?? "liveactivity") else {
            throw OptionError(message: "--type is liveactivity or widgets")
        }
        let priority = try options["priority"].map { text in
            guard let value = Int(text).flatMap(PushHeaders.Priority.init(rawValue:)) else {
                throw OptionError(message: "--priority is 5 or 10")
            }
            return value
        }
        let expiration = try options["expiration"].map { text in
            guard let seconds = Int64(text), (0...253_402_300_799).contains(seconds) else {
                throw OptionError(message: "--expiration needs seconds since 1970")
            }
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        let apnsID = try options["apns-id"].map { text in
            guard let id = UUID(uuidString: text) else { throw OptionError(message: "--apns-id is not a UUID") }
            return id
        } ?? UUID()
        let collapseID = options["collapse-id"]
        let activity = options["activity"] ?? ""
        let json = options.has("json")
        return { engine, store in
            let now = engine.clock.now
            let headers = PushHeaders(pushType: type, bundleIdentifier: store.planner.bundleIdentifier,
                                      priority: priority, expiration: expiration)
            try store.outbox.enqueue(OutboxPush(apnsID: apnsID, activityID: activity, deviceToken: token,
                                                headers: headers, payload: Data(payloadText.utf8),
                                                collapseID: collapseID, createdAt: now, dueAt: now))
            guard let queued = try store.outbox.push(apnsID: apnsID) else { throw PushOutboxError.unknownPush(apnsID) }
            return json ? JSONOutput.text(V1.OutboxPush(queued)) : line(queued)
        }
    }

    /// The `outbox <apns-id>` work.
    static func fate(_ text: String, json: Bool) throws -> @Sendable (WidgetEngine, PushStore) throws -> String {
        guard let id = UUID(uuidString: text) else { throw OptionError(message: "'\(text)' is not an apns-id (a UUID)") }
        return { _, store in
            guard let push = try store.outbox.push(apnsID: id) else { throw PushOutboxError.unknownPush(id) }
            return json ? JSONOutput.text(V1.OutboxPush(push)) : line(push)
        }
    }
}
