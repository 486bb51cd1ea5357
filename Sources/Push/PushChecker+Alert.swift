import JSON

extension PushInspection {
    /// `alert`: an object whose `title` and `body` are strings or `{"loc-key": …, "loc-args": [strings]}`, and whose
    /// `sound` is a string, as the device reads a Live Activity alert.
    mutating func checkAlert(_ alert: JSONValue) {
        guard let members = alert.objectValue else {
            return report(.invalidAlert, pointer: "/aps/alert", """
                alert is \(alert.typeName); a Live Activity alert is an object {"title", "body", "sound"}
                """)
        }
        for key in ["title", "body"] {
            guard let text = members[key] else { continue }
            checkAlertText(text, at: JSONPointer.appending([key], to: "/aps/alert"))
        }
        if let sound = members["sound"], sound.stringValue == nil {
            report(.invalidAlert, pointer: "/aps/alert/sound",
                   "sound is \(sound.typeName); it must be a sound file's name, or \"default\"")
        }
    }

    private mutating func checkAlertText(_ text: JSONValue, at pointer: String) {
        switch text {
        case .string: return
        case .object(let localized):
            guard let key = localized["loc-key"]?.stringValue, !key.isEmpty else {
                return report(.invalidAlert, pointer: pointer + "/loc-key",
                              "a localized text needs loc-key, a non-empty string")
            }
            guard let arguments = localized["loc-args"] else { return }
            guard case .array(let items) = arguments else {
                return report(.invalidAlert, pointer: pointer + "/loc-args",
                              "loc-args is \(arguments.typeName); it must be an array of strings")
            }
            for (index, item) in items.enumerated() where item.stringValue == nil {
                report(.invalidAlert, pointer: pointer + "/loc-args/\(index)",
                       "loc-args holds \(item.typeName); the device shows only strings (write \(item.canonicalText) as a string)")
            }
        default:
            report(.invalidAlert, pointer: pointer,
                   "the text is \(text.typeName); it must be a string or {\"loc-key\": …, \"loc-args\": […]}")
        }
    }
}
