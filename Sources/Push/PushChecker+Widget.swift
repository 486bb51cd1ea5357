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
