import JSON

extension PushInspection {
    /// A widget push is `{"aps":{"content-changed":true}}` and nothing else: WidgetKit passes no data to the widget.
    mutating func checkWidget(root: [String: JSONValue], aps: [String: JSONValue]) {
        for key in root.keys.sorted() where key != "aps" {
            report(.widgetPayload, pointer: JSONPointer.appending([key], to: ""),
                   "a widget push carries no data; the widget never sees \"\(key)\" (reload it from the provider)")
        }
        for key in aps.keys.sorted() where key != "content-changed" {
            report(.widgetPayload, pointer: JSONPointer.appending([key], to: "/aps"),
                   "a widget push's aps holds only \"content-changed\": true; remove \"\(key)\"")
        }
        if aps["content-changed"] != .bool(true) {
            let found = aps["content-changed"].map { "is \($0.canonicalText)" } ?? "is missing"
            report(.widgetPayload, pointer: "/aps/content-changed", "content-changed \(found); it must be true")
        }
        if headers["apns-priority"].flatMap(Self.decimal) == 10 {
            report(.widgetPriority, header: "apns-priority", """
                priority 10 does not make widgets reload sooner: the system reloads them within their budget; \
                send 5 or no apns-priority
                """)
        }
        if headers["apns-channel-id"] != nil {
            report(.widgetPayload, header: "apns-channel-id", "widget pushes are not broadcast; remove apns-channel-id")
        }
    }
}

extension PushInspection {
    /// A control push is, like a widget push, `{"aps":{"content-changed":true}}` and nothing else: the controls read
    /// their values again through their providers; no data reaches them.
    mutating func checkControl(root: [String: JSONValue], aps: [String: JSONValue]) {
        for key in root.keys.sorted() where key != "aps" {
            report(.controlPayload, pointer: JSONPointer.appending([key], to: ""),
                   "a control push carries no data; the control never sees \"\(key)\" (read it in its value provider)")
        }
        for key in aps.keys.sorted() where key != "content-changed" {
            report(.controlPayload, pointer: JSONPointer.appending([key], to: "/aps"),
                   "a control push's aps holds only \"content-changed\": true; remove \"\(key)\"")
        }
        if aps["content-changed"] != .bool(true) {
            let found = aps["content-changed"].map { "is \($0.canonicalText)" } ?? "is missing"
            report(.controlPayload, pointer: "/aps/content-changed", "content-changed \(found); it must be true")
        }
        if headers["apns-priority"].flatMap(Self.decimal) == 10 {
            report(.controlPriority, header: "apns-priority", """
                priority 10 does not make controls reload sooner: the system reads them again when it suits it; \
                send 5 or no apns-priority
                """)
        }
        if headers["apns-channel-id"] != nil {
            report(.controlPayload, header: "apns-channel-id", "control pushes are not broadcast; remove apns-channel-id")
        }
    }
}
