import Foundation
import HTTPServer
import JSON
import Push
import WidgetHost

// The planner's wire shapes: what `/v1/activities/{id}/states` and `/v1/push/…` read and answer. Dates RFC 3339,
// tokens hex, payloads as JSON.
extension V1 {
    /// `POST /v1/activities/{id}/states` body.
    package struct SubmitStateRequest: Decodable {
        /// The attributes type; the engine's activity's when absent.
        var attributesType: String?
        /// The new content state.
        var state: JSONValue
        /// Whether the device reports frequent pushes enabled; the engine's switch when absent.
        var frequentPushes: Bool?
    }

    /// One planner decision.
    package struct PlannerDecision: Encodable {
        var id: Int64
        var activityId: String
        var at: Date
        var kind: String
        var reason: String
        var state: JSONValue?
        var apnsId: String?
        var priority: Int?
        var dueAt: Date?

        package init(_ decision: Push.PlannerDecision) {
            id = decision.id
            activityId = decision.activityID
            at = decision.at
            kind = decision.kind.rawValue
            reason = decision.reason
            state = decision.state
            apnsId = decision.apnsID?.uuidString
            priority = decision.priority
            dueAt = decision.dueAt
        }
    }

    /// Decisions, oldest first.
    package struct PlannerDecisionList: Encodable {
        var decisions: [PlannerDecision]

        package init(_ decisions: [Push.PlannerDecision]) {
            self.decisions = decisions.map(PlannerDecision.init)
        }
    }

    /// One outbox push: its address, headers and payload as they will be sent, and its delivery.
    package struct OutboxPush: Encodable {
        var apnsId: String
        /// Absent for a caller's own push that names no activity (POST /v1/push/outbox without one).
        var activityId: String?
        var event: String
        var deviceToken: String?
        var channelId: String?
        var headers: [String: String]
        var payload: JSONValue
        var priority: Int
        var createdAt: Date
        var dueAt: Date
        var status: String
        var attempts: Int
        var lastResult: String?
        var pushType: String
        var collapseId: String?
        var apnsStatus: Int?
        var nextAttemptAt: Date?
        var finishedAt: Date?

        package init(_ push: Push.OutboxPush) {
            apnsId = push.apnsID.uuidString
            activityId = push.activityID.isEmpty ? nil : push.activityID
            event = push.event.rawValue
            deviceToken = push.deviceToken.map(PushTokenText.hex)
            channelId = push.headers.channelID
            headers = (try? push.headers.dictionary()) ?? [:]
            if let collapseID = push.collapseID { headers["apns-collapse-id"] = collapseID }
            payload = (try? JSONParser.parse(push.payload)) ?? .null
            priority = push.priority
            createdAt = push.createdAt
            dueAt = push.dueAt
            status = push.status.rawValue
            attempts = push.attempts
            lastResult = push.lastResult
            pushType = push.headers.pushType.rawValue
            collapseId = push.collapseID
            apnsStatus = push.apnsStatus
            nextAttemptAt = push.nextAttemptAt
            finishedAt = push.finishedAt
        }
    }

    /// The outbox: pending first.
    package struct OutboxList: Encodable {
        var pushes: [OutboxPush]
        var pending: Int
        var delivered: Int
        var failed: Int

        package init(_ pushes: [Push.OutboxPush], counts: [Push.OutboxPush.Status: Int]) {
            self.pushes = pushes.map(OutboxPush.init)
            pending = counts[.pending] ?? 0
            delivered = counts[.delivered] ?? 0
            failed = counts[.failed] ?? 0
        }
    }

    /// What `POST /v1/push/outbox/deliver` did with each push.
    package struct OutboxDeliveryList: Encodable {
        package struct Delivery: Encodable {
            var push: OutboxPush
            var applied: Bool
            var result: String
        }

        var deliveries: [Delivery]

        init(_ deliveries: [LiveActivities.OutboxDelivery]) {
            self.deliveries = deliveries.map { Delivery(push: OutboxPush($0.push), applied: $0.applied, result: $0.result) }
        }
    }

    /// A planner policy, with every field (defaults filled in) and the stale interval in force.
    package struct PlannerPolicyDocument: Encodable {
        var attributesType: String
        var policy: PlannerPolicy
        var effectiveStaleInterval: TimeInterval

        init(_ attributesType: String, _ policy: PlannerPolicy) {
            self.attributesType = attributesType
            self.policy = policy
            effectiveStaleInterval = policy.effectiveStaleInterval
        }
    }
}
