import Foundation
import JSON
import Push
import WidgetHost

/// The plain-text lines `widgethost activities` prints without `--json`: one line per activity or event.
enum ActivityLines {
    static func summary(_ record: ActivityRecord) -> String {
        var line = "\(record.id) \(record.attributesType) \(record.state.rawValue) \(record.content.state.canonicalText)"
        if let token = record.pushToken { line += " token \(PushTokenText.hex(token))" }
        if let channel = record.push.channelID { line += " channel \(channel)" }
        return line
    }

    static func event(_ event: ActivityEvent) -> String {
        let head = "  \(DateTimeText.string(from: event.at)) \(event.source.rawValue)"
        switch event.change {
        case .state(let state): return "\(head) state \(state.rawValue)"
        case .content(let content): return "\(head) content \(content.state.canonicalText)"
        case .alert(let alert): return "\(head) alert \(alert.title): \(alert.body)"
        case .token(let token): return "\(head) token \(PushTokenText.hex(token))"
        case .ignored(let ignored): return "\(head) ignored \(ignored.reason.rawValue): \(ignored.detail)"
        }
    }

    static func outcome(_ outcome: ActivityUpdateOutcome) -> String {
        switch outcome {
        case .applied: "applied"
        case .ignored(let ignored): "ignored \(ignored.reason.rawValue): \(ignored.detail)"
        }
    }

    static func delivery(_ delivery: PushDelivery) -> String {
        delivery.results.map { result in
            "\(result.activityID ?? "(no activity)"): \(outcome(result.outcome))"
        }.joined(separator: "\n")
    }

    static func screen(_ screen: ActivityScreen) -> String {
        guard let state = screen.state else { return "not requested yet at \(DateTimeText.string(from: screen.at))" }
        var line = "\(state.rawValue)\(screen.isVisible ? "" : " (not visible)")"
        if let content = screen.content { line += " \(content.state.canonicalText)" }
        if let alert = screen.lastAlert { line += "\nlast alert: \(alert.title): \(alert.body)" }
        return line
    }
}
