import ActivityKit
import Foundation
import HTTPServer
import JSON
import Push
import WidgetHost

// What `POST /v1/device/push` answers: a Live Activity push's result per activity, or a widget push's reloads.
extension V1 {
    /// `POST /v1/device/push`: what the device did with the push, for each activity it reached.
    package struct PushDelivery: Encodable {
        var event: String?
        /// Whether anything on screen changed.
        var applied: Bool
        var results: [PushResult]

        package init(_ delivery: WidgetHost.PushDelivery) {
            event = delivery.event
            applied = delivery.applied
            results = delivery.results.map(PushResult.init)
        }
    }

    /// One activity a push reached (none, for an unknown token).
    struct PushResult: Encodable {
        var activityId: String?
        var outcome: String
        var reason: String?
        var detail: String?

        init(_ result: WidgetHost.PushDelivery.Result) {
            activityId = result.activityID
            (outcome, reason, detail) = ActivityChangeResult.text(result.outcome)
        }
    }

    /// `POST /v1/device/push` with `apns-push-type: widgets`: the reloads the push ran, or why it changed nothing.
    package struct WidgetPushResult: Encodable {
        var applied: Bool
        var reason: String?
        var detail: String?
        var reloads: [Reload]

        package init(_ delivery: WidgetPushDelivery) {
            switch delivery {
            case .applied(let records):
                applied = true
                reloads = records.map(Reload.init)
            case .ignored(let reason, let detail):
                applied = false
                self.reason = reason.rawValue
                self.detail = detail
                reloads = []
            }
        }
    }
}
