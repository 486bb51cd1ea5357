import ActivityKit
import Foundation

/// ActivityKit's calls from user code go to the engine's Live Activities.
extension UserCodeBinding: ActivityHost {
    func requestActivity(_ request: ActivityRequestDetails) throws -> ActivitySnapshot {
        try activities.requestActivity(request)
    }

    func updateActivity(id: String, content: EncodedActivityContent, alert: AlertConfiguration?,
                        timestamp: Date?) async {
        await activities.updateActivity(id: id, content: content, alert: alert, timestamp: timestamp)
    }

    func endActivity(id: String, content: EncodedActivityContent?, dismissalPolicy: ActivityUIDismissalPolicy,
                     timestamp: Date?) async {
        await activities.endActivity(id: id, content: content, dismissalPolicy: dismissalPolicy, timestamp: timestamp)
    }

    func activitySnapshot(id: String) -> ActivitySnapshot? {
        activities.activitySnapshot(id: id)
    }

    func activitySnapshots(attributesType: String) -> [ActivitySnapshot] {
        activities.activitySnapshots(attributesType: attributesType)
    }

    func activityEvents(id: String) -> AsyncStream<ActivityHostEvent> {
        activities.activityEvents(id: id)
    }

    func activityStarts(of type: ActivityAttributesType) -> AsyncStream<ActivitySnapshot> {
        activities.activityStarts(of: type)
    }

    func pushToStartToken(of type: ActivityAttributesType) -> Data? {
        activities.pushToStartToken(of: type)
    }

    func pushToStartTokenUpdates(of type: ActivityAttributesType) -> AsyncStream<Data> {
        activities.pushToStartTokenUpdates(of: type)
    }

    var activityAuthorization: ActivityAuthorization {
        activities.activityAuthorization
    }

    func activityAuthorizationUpdates() -> AsyncStream<ActivityAuthorization> {
        activities.activityAuthorizationUpdates()
    }
}
