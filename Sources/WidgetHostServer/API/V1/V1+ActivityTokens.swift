import ActivityKit
import Foundation
import HTTPServer
import JSON
import Push
import WidgetHost

// Tokens and attributes types on the wire: what `/v1/activities/{id}/tokens`, `/v1/activity-types` and the token
// rotations answer. Tokens are lower-case hex (`PushTokenText`), dates RFC 3339.
extension V1 {
    /// `GET /v1/activities/{id}/tokens` and `GET /v1/activity-types/{name}/tokens`: every token issued, oldest
    /// first; the current one has no `replacedAt`.
    package struct ActivityTokenList: Encodable {
        var tokens: [ActivityToken]

        package init(_ records: [ActivityTokenRecord]) {
            tokens = records.map(ActivityToken.init)
        }
    }

    /// One issued push token.
    struct ActivityToken: Encodable {
        var token: String
        var activityId: String?
        var attributesType: String?
        var issuedAt: Date
        var replacedAt: Date?

        init(_ record: ActivityTokenRecord) {
            token = PushTokenText.hex(record.token)
            activityId = record.activityID
            attributesType = record.attributesType
            issuedAt = record.issuedAt
            replacedAt = record.replacedAt
        }
    }

    /// `POST …/rotate`: the token that now replaces the previous one.
    package struct RotatedToken: Encodable {
        var token: String

        package init(_ token: Data) {
            self.token = PushTokenText.hex(token)
        }
    }

    /// `GET /v1/activity-types`.
    package struct ActivityTypeList: Encodable {
        var types: [ActivityType]

        /// - Parameter schemas: The content state schema of each type the catalog registered (types app code taught
        ///   the engine have none).
        package init(_ types: [ActivityTypeTokens], schemas: (String) -> JSONValue? = { _ in nil }) {
            self.types = types.map {
                ActivityType(name: $0.name, pushToStartToken: $0.pushToStartToken.map(PushTokenText.hex),
                             contentStateSchema: schemas($0.name))
            }
        }
    }

    /// A registered attributes type, its current push-to-start token (once one was issued) and the JSON Schema of its
    /// content state, which pushes' `content-state` must match.
    struct ActivityType: Encodable {
        var name: String
        var pushToStartToken: String?
        var contentStateSchema: JSONValue?
    }
}
