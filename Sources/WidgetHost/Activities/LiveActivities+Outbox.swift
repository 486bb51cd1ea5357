import Foundation
import Push

/// The whole push loop on one machine: the planner's outbox, delivered to the engine's own simulated device.
///
/// What a sender does with APNs, done with ``deliver(_:)``: each pending push is applied as the device applies it,
/// and marked with the device's answer, so a host sees in the outbox whether its pushes moved the Lock Screen.
extension LiveActivities {
    /// What one outbox push did on the device.
    public struct OutboxDelivery: Sendable, Hashable {
        /// The push.
        public var push: OutboxPush
        /// `applied`, `ignored: <reason>: <detail>` per activity reached, or APNs's refusal (`BadTopic: …`).
        public var result: String
        /// Whether it changed the Lock Screen.
        public var applied: Bool
    }

    /// Delivers the outbox's pending pushes due by the clock's now, oldest due first, and marks each: `delivered`
    /// with the device's outcome, or `failed` with what APNs would have answered.
    /// - Parameter limit: At most this many pushes.
    /// - Returns: What each push did.
    public func deliver(outbox: PushOutbox, limit: Int = 1000) throws -> [OutboxDelivery] {
        try outbox.due(by: clock.now, limit: limit).map { push in
            let device = DevicePush(pushType: push.headers.pushType.rawValue, topic: push.headers.topic,
                                    priority: push.priority, channelID: push.headers.channelID,
                                    deviceToken: push.headers.channelID == nil ? push.deviceToken : nil,
                                    payload: push.payload)
            let status: OutboxPush.Status
            let result: String
            var applied = false
            do {
                let delivery = try deliver(device)
                applied = delivery.applied
                status = .delivered
                result = delivery.results.map { item in
                    switch item.outcome {
                    case .applied: "applied"
                    case .ignored(let ignored): "ignored: \(ignored.reason.rawValue): \(ignored.detail)"
                    }
                }.joined(separator: "; ")
            } catch let refusal as DevicePushError {
                status = .failed
                result = "\(refusal.apnsReason): \(refusal.description)"
            }
            try outbox.mark(push.apnsID, status, result: result)
            var marked = push
            marked.status = status
            marked.attempts += 1
            marked.lastResult = result
            return OutboxDelivery(push: marked, result: result, applied: applied)
        }
    }
}
