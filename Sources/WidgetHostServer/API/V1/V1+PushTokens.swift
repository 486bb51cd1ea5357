import Foundation
import HTTPServer
import JSON
import Push

// The push token registry's wire shapes: what `/v1/push/tokens…` and `/v1/push/registrations…` read and answer.
// Tokens are hex (either case read, lower case written), dates RFC 3339.
extension V1 {
    /// `PUT` body of a token slot: the token the app's stream delivered.
    package struct TokenRegistrationRequest: Decodable {
        var token: String
        /// Activity slots: the device the activity runs on, when the app reports it.
        var device: String?
        /// Activity slots: the activity's attributes type, when the app reports it.
        var attributesType: String?
        /// Widget slots: the kinds the device has placed (`WidgetPushHandler.pushTokenDidChange(_:widgets:)`).
        var kinds: [String]?

        /// Checks every identifier the body names, also those the slot does not use, so that a body is refused for
        /// what it says, not only for what is read of it (422 `invalid_identifier`).
        func checkIdentifiers() throws {
            try device.map { try PushTokenRegistry.check("device", $0) }
            try attributesType.map { try PushTokenRegistry.check("attributes type", $0) }
            for kind in kinds ?? [] { try PushTokenRegistry.check("widget kind", kind) }
        }

        /// The token's bytes, or 400 `invalid_field` when it is not hex.
        func tokenBytes() throws -> Data {
            guard let bytes = PushTokenText.token(token) else {
                throw APIError.invalidField("token", "expected hex digits, two per byte, at most 200 bytes")
            }
            return bytes
        }
    }

    /// `POST /v1/push/registrations/{token}/invalidate` body.
    package struct TokenInvalidationRequest: Decodable {
        var reason: String
    }

    /// What a registration did, and the token as registered.
    package struct TokenRegistrationResult: Encodable {
        var registration: String
        var previous: String?
        var token: PushToken

        init(_ outcome: PushTokenRegistration, _ record: PushTokenRecord) {
            switch outcome {
            case .created: registration = "created"
            case .rotated(let previous):
                registration = "rotated"
                self.previous = PushTokenText.hex(previous)
            case .unchanged: registration = "unchanged"
            }
            token = PushToken(record)
        }
    }

    /// One slot: its current token and every token it had.
    package struct TokenSlot: Encodable {
        var current: PushToken?
        var history: [PushToken]

        init(_ history: [PushTokenRecord]) {
            self.history = history.map(PushToken.init)
            current = history.last.flatMap { $0.isUsable ? PushToken($0) : nil }
        }
    }

    /// A device's current tokens.
    package struct PushTokenList: Encodable {
        var tokens: [PushToken]

        init(_ records: [PushTokenRecord]) {
            tokens = records.map(PushToken.init)
        }
    }

    /// One registered token.
    package struct PushToken: Encodable {
        var token: String
        var kind: String
        var device: String?
        var attributesType: String?
        var activityId: String?
        var widgetKinds: [String]?
        var registeredAt: Date
        var replacedAt: Date?
        var invalidatedAt: Date?
        var invalidReason: String?
        var usable: Bool

        init(_ record: PushTokenRecord) {
            token = PushTokenText.hex(record.token)
            kind = record.slot.kind
            device = record.device
            attributesType = record.attributesType
            if case .activity(let id) = record.slot { activityId = id }
            if case .widgets = record.slot { widgetKinds = record.widgetKinds }
            registeredAt = record.registeredAt
            replacedAt = record.replacedAt
            invalidatedAt = record.invalidatedAt
            invalidReason = record.invalidReason
            usable = record.isUsable
        }
    }
}

// The push checker's wire shapes: what `POST /v1/push/check` reads and answers, and what `widgethost push check
// --json` writes.
extension V1 {
    /// A push to check: its headers, and its payload either as JSON or as the exact text to be sent.
    package struct PushCheckRequest: Decodable {
        /// The `apns-*` header fields.
        var headers: [String: String]
        /// The payload as JSON; written compactly for the check (its size is then that of the compact text).
        var payload: JSONValue?
        /// The payload exactly as it will be sent, so that its bytes (size, duplicate keys) are what is checked.
        var payloadText: String?
        /// The attributes type the push addresses (default: every type the catalog registers).
        var attributesType: String?
        /// The last `timestamp` the activity applied, if known.
        var lastTimestamp: Date?

        private enum CodingKeys: String, CodingKey { case headers, payload, payloadText, attributesType, lastTimestamp }

        /// Reads the body; `payload` and `payloadText` are either given or absent, never `null` (a null payload is
        /// not a push to check), so that which one was meant is never a guess.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            headers = try container.decode([String: String].self, forKey: .headers)
            for key in [CodingKeys.payload, .payloadText] where container.contains(key) {
                if try container.decodeNil(forKey: key) {
                    throw APIError.invalidField(key.stringValue, "give it, or leave it out; null is not a payload")
                }
            }
            payload = try container.decodeIfPresent(JSONValue.self, forKey: .payload)
            payloadText = try container.decodeIfPresent(String.self, forKey: .payloadText)
            attributesType = try container.decodeIfPresent(String.self, forKey: .attributesType)
            lastTimestamp = try container.decodeIfPresent(Date.self, forKey: .lastTimestamp)
        }

        /// The payload's bytes; exactly one of `payload` (an object) and `payloadText`, else 400 `invalid_field`.
        func payloadBytes() throws -> Data {
            switch (payload, payloadText) {
            case (let json?, nil):
                guard case .object = json else {
                    throw APIError.invalidField("payload", "an APNs payload is a JSON object; give the exact text in payloadText")
                }
                return Data(json.canonicalText.utf8)
            case (nil, let text?): return Data(text.utf8)
            default: throw APIError.invalidField("payload", "give exactly one of payload (JSON) and payloadText (text)")
            }
        }
    }

    /// The checker's verdict: `ok` when no finding is an error.
    package struct PushCheckResult: Encodable {
        var ok: Bool
        var errors: Int
        var warnings: Int
        var findings: [Finding]

        /// One rule broken.
        struct Finding: Encodable {
            var severity: String
            var code: String
            var pointer: String?
            var header: String?
            var message: String
        }

        package init(_ findings: [PushFinding]) {
            errors = findings.filter { $0.severity == .error }.count
            warnings = findings.count - errors
            ok = errors == 0
            self.findings = findings.map {
                Finding(severity: $0.severity.rawValue, code: $0.code.rawValue, pointer: $0.pointer, header: $0.header,
                        message: $0.message)
            }
        }
    }
}

// Broadcast channels: what `/v1/push/channels…` read and answer.
extension V1 {
    /// `PUT /v1/push/channels/{channelId}` body.
    package struct ChannelRegistrationRequest: Decodable {
        var attributesType: String
    }

    /// `POST /v1/push/channels/{channelId}/close` body.
    package struct ChannelCloseRequest: Decodable {
        var reason: String
    }

    /// One channel.
    package struct Channel: Encodable {
        var id: String
        var attributesType: String
        var registeredAt: Date
        var closedAt: Date?
        var closeReason: String?
        var open: Bool

        init(_ channel: PushChannel) {
            id = channel.id
            attributesType = channel.attributesType
            registeredAt = channel.registeredAt
            closedAt = channel.closedAt
            closeReason = channel.closeReason
            open = channel.closedAt == nil
        }
    }

    /// The channels.
    package struct ChannelList: Encodable {
        var channels: [Channel]

        init(_ channels: [PushChannel]) {
            self.channels = channels.map(Channel.init)
        }
    }
}
