import Foundation

extension PushInspection {
    /// What APNs checks of the headers, and the payload's size.
    mutating func checkHeaders(payloadSize: Int) {
        let typeText = headers["apns-push-type"]
        if pushType == nil {
            report(.badPushType, header: "apns-push-type", typeText.map {
                "apns-push-type is '\($0)'; it must be liveactivity, widgets or controls"
            } ?? "apns-push-type is missing; send liveactivity, widgets or controls")
        }
        checkTopic()
        if let text = headers["apns-priority"], Self.decimal(text) != 5, Self.decimal(text) != 10 {
            report(.badPriority, header: "apns-priority", "apns-priority is '\(text)'; it must be 5 or 10")
        }
        if let text = headers["apns-expiration"], Self.decimal(text) == nil {
            report(.badExpiration, header: "apns-expiration", """
                apns-expiration is '\(text)'; it must be whole seconds since 1970 (0: deliver once or never)
                """)
        }
        if payloadSize > PushCoding.maximumPayloadSize {
            report(.payloadTooLarge, pointer: "", """
                the payload is \(payloadSize) bytes; APNs takes at most \(PushCoding.maximumPayloadSize)
                """)
        }
    }

    private mutating func checkTopic() {
        guard let topic = headers["apns-topic"] else {
            let suffix = PushHeaders.topicSuffix(pushType ?? .liveActivity)
            return report(.topicMismatch, header: "apns-topic", "apns-topic is missing; send <bundle id>\(suffix)")
        }
        guard let pushType else { return }
        let suffix = PushHeaders.topicSuffix(pushType)
        if !topic.hasSuffix(suffix) || topic.utf8.count == suffix.utf8.count {
            report(.topicMismatch, header: "apns-topic", """
                apns-topic is '\(topic)'; a \(pushType.rawValue) push goes to <bundle id>\(suffix)
                """)
        }
    }

    /// The priority APNs delivers at: the header's, or 10 when there is none.
    var effectivePriority: Int? {
        guard let text = headers["apns-priority"] else { return 10 }
        return Self.decimal(text)
    }
}
