import Foundation
import WidgetHost

/// Plain-text renderings of Smart Stack answers.
enum StackText {
    static func ranking(_ ranking: StackRanking) -> String {
        let iso = Date.ISO8601FormatStyle()
        var lines = ["stack \(ranking.stackID) at \(ranking.evaluatedAt.formatted(iso))"]
        if let top = ranking.top {
            let since = ranking.topSince.map { " since \($0.formatted(iso))" } ?? ""
            lines.append("top   \(top)\(since): \(decision(ranking.decision))")
        } else {
            lines.append("top   none: the stack is empty")
        }
        lines.append("")
        lines.append(pad(["instance", "kind", "family", "total", "entry raw", "entry", "donation", "context", "taps"]))
        for item in ranking.instances {
            let raw = item.parts.entry.score.map { "\($0) (\(item.parts.entry.state.rawValue))" }
                ?? item.parts.entry.state.rawValue
            lines.append(pad([
                item.instanceID + (item.eligible ? "" : " (≤0)"), item.kind, item.family, fixed(item.total), raw,
                fixed(item.parts.entryNormalised), "\(fixed(item.parts.donation)) (\(item.parts.donationCount))",
                fixed(item.parts.context), "\(fixed(item.parts.taps)) (\(item.parts.tapCount))",
            ]))
        }
        return lines.joined(separator: "\n")
    }

    static func decision(_ decision: RotationDecision) -> String {
        let iso = Date.ISO8601FormatStyle()
        switch decision {
        case .initial: return "first ranking of the stack"
        case .keptLeader: return "still the best"
        case .keptMinimumDwell(let challenger, let until):
            return "kept: \(challenger) leads, but the top stays until \(until.formatted(iso)) (minimum dwell)"
        case .keptWithinMargin(let challenger, let lead):
            return "kept: \(challenger) leads by \(fixed(lead)), less than the hysteresis margin"
        case .rotated(let from): return "rotated" + (from.map { " from \($0)" } ?? "")
        case .historical: return "answered for an earlier instant; the stored top is unchanged"
        case .empty: return "the stack is empty"
        }
    }

    static func fixed(_ value: Double) -> String { String(format: "%.3f", value) }

    private static func pad(_ fields: [String]) -> String {
        let widths = [22, 16, 21, 7, 18, 7, 11, 8, 10]
        return zip(fields, widths).map { field, width in
            field.count >= width ? field + " " : field + String(repeating: " ", count: width - field.count)
        }.joined().trimmingCharacters(in: .whitespaces)
    }
}
