import Foundation
import HTTPServer
import JSON
import WidgetHost

extension APIError.Code {
    /// 404: no activity has this id (`detail.activity`).
    public static let unknownActivity: Self = "unknown_activity"
    /// 404 on an attributes type's own path, 422 when a body or query names it: the engine knows no attributes type
    /// of this name (`detail.attributesType`).
    public static let unknownAttributesType: Self = "unknown_attributes_type"
    /// 422: the attributes do not decode as their type (`detail.reason` names the path).
    public static let undecodableAttributes: Self = "undecodable_attributes"
    /// 422: the content state does not decode as the type's `ContentState` (`detail.reason` names the path).
    public static let undecodableContentState: Self = "undecodable_content_state"
    /// 409: Live Activities are switched off (`PUT /v1/activities/authorization`).
    public static let activitiesDisabled: Self = "activities_disabled"
    /// 409: the app already has as many activities as it may (`detail.limit`).
    public static let tooManyActivities: Self = "too_many_activities"
    /// 422: attributes and content state are larger than allowed together (`detail.size`, `detail.limit`).
    public static let tooLarge: Self = "too_large"
    /// 422: the channel id is empty, too long or holds control characters (`detail.channelId`).
    public static let invalidChannel: Self = "invalid_channel"
    /// 409: the activity takes no pushes by token (or has ended), so it has no token to rotate (`detail.activity`).
    public static let noPushToken: Self = "no_push_token"
    /// 422: the moment is after the clock's now; what the screen will show is not known yet (`detail.at`).
    public static let futureTime: Self = "future_time"
    /// 400: APNs itself would refuse the push, so it never reaches the device (`detail.apns_reason`, APNs's own
    /// reason such as `BadPriority`, `TopicDisallowed`, `BadDeviceToken`).
    public static let badPush: Self = "bad_push"
}

extension APIError {
    /// The API's answer to a refused activity operation; nothing was changed.
    ///
    /// | error | status | code |
    /// |---|---|---|
    /// | `unknownActivity` | 404 | `unknown_activity` |
    /// | `unknownAttributesType` | 404 (422 from ``namingAttributesTypeInRequest(_:)``) | `unknown_attributes_type` |
    /// | `undecodableAttributes` | 422 | `undecodable_attributes` |
    /// | `undecodableContentState` | 422 | `undecodable_content_state` |
    /// | `activitiesDisabled` | 409 | `activities_disabled` |
    /// | `tooManyActivities` | 409 | `too_many_activities` |
    /// | `tooLarge` | 422 | `too_large` |
    /// | `invalidChannel` | 422 | `invalid_channel` |
    /// | `noPushToken` | 409 | `no_push_token` |
    /// | `futureTime` | 422 | `future_time` |
    public init(_ error: ActivityError) {
        let message = error.description
        switch error {
        case .unknownActivity(let id):
            self.init(.unknownActivity, status: .notFound, message: message, detail: ["activity": .string(id)])
        case .unknownAttributesType(let name):
            self.init(.unknownAttributesType, status: .notFound, message: message,
                      detail: ["attributesType": .string(name)])
        case .undecodableAttributes(let reason):
            self.init(.undecodableAttributes, status: .unprocessableContent, message: message,
                      detail: ["reason": .string(reason)])
        case .undecodableContentState(let reason):
            self.init(.undecodableContentState, status: .unprocessableContent, message: message,
                      detail: ["reason": .string(reason)])
        case .activitiesDisabled:
            self.init(.activitiesDisabled, status: .conflict, message: message, detail: nil)
        case .tooManyActivities(let limit):
            self.init(.tooManyActivities, status: .conflict, message: message, detail: ["limit": .int(limit)])
        case .tooLarge(let size, let limit):
            self.init(.tooLarge, status: .unprocessableContent, message: message,
                      detail: ["size": .int(size), "limit": .int(limit)])
        case .invalidChannel(let id):
            self.init(.invalidChannel, status: .unprocessableContent, message: message,
                      detail: ["channelId": .string(id)])
        case .noPushToken(let id):
            self.init(.noPushToken, status: .conflict, message: message, detail: ["activity": .string(id)])
        case .futureTime(let date):
            self.init(.futureTime, status: .unprocessableContent, message: message,
                      detail: ["at": .string(DateTimeText.string(from: date))])
        }
    }

    /// The API's answer to a push APNs itself would refuse: 413 `payload_too_large` for a payload over APNs's
    /// 4096 bytes, 400 `bad_push` for the rest; `detail.apns_reason` is the reason APNs answers with.
    public init(_ error: DevicePushError) {
        var detail: [String: JSONValue] = ["apns_reason": .string(error.apnsReason)]
        switch error {
        case .payloadTooLarge(let size, let limit):
            detail["size"] = .int(size)
            detail["limit"] = .int(limit)
            self.init(.payloadTooLarge, status: .payloadTooLarge, message: error.description, detail: .object(detail))
        case .missingHeader(let name):
            detail["header"] = .string(name)
            self.init(.badPush, status: .badRequest, message: error.description, detail: .object(detail))
        case .unsupportedPushType, .badTopic, .badPriority, .badAddress, .badPayload:
            self.init(.badPush, status: .badRequest, message: error.description, detail: .object(detail))
        }
    }

    /// 400 `bad_push` for a device token that is not hex (APNs's `BadDeviceToken`).
    static func badDeviceToken(_ text: String) -> APIError {
        APIError(.badPush, status: .badRequest,
                 message: "the device token is not 1 to 200 bytes of hex digits: '\(text)'",
                 detail: ["apns_reason": "BadDeviceToken", "parameter": "token"])
    }
}

/// Runs activity work, turning ``ActivityError`` and ``DevicePushError`` into ``APIError``s.
func mappingActivityErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as ActivityError {
        throw APIError(error)
    } catch let error as DevicePushError {
        throw APIError(error)
    }
}

/// ``mappingActivityErrors(_:)`` for work that waits.
func mappingActivityErrors<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as ActivityError {
        throw APIError(error)
    } catch let error as DevicePushError {
        throw APIError(error)
    }
}

/// Runs activity work for a request whose body or query names an attributes type: an unknown one is 422, not
/// 404, since the resource the path names exists (404 stays for `/v1/activity-types/{name}`).
func namingAttributesTypeInRequest<T>(_ body: () throws -> T) throws -> T {
    try mappingActivityErrors {
        do {
            return try body()
        } catch ActivityError.unknownAttributesType(let name) {
            throw APIError.unknownAttributesTypeInRequest(name)
        }
    }
}

extension APIError {
    /// 422 `unknown_attributes_type`, for a name a body or query gives.
    static func unknownAttributesTypeInRequest(_ name: String) -> APIError {
        var error = APIError(ActivityError.unknownAttributesType(name))
        error.status = .unprocessableContent
        return error
    }
}
