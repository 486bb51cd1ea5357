import Foundation
import HTTPServer
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
