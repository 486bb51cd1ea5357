import ActivityKit
import Foundation
import JSON
import WidgetHost

extension ActivityChart {
    /// The events drawn as marks, one row each, in the order the rows go down.
    enum MarkKind: String, CaseIterable {
        case content, alert, token, ignored

        /// The row's name, left of the plot.
        var rowLabel: String {
            switch self {
            case .content: "content"
            case .alert: "alerts"
            case .token: "tokens"
            case .ignored: "ignored"
            }
        }

        /// What the legend calls it.
        var legendLabel: String {
            switch self {
            case .content: "content update"
            case .alert: "alert"
            case .token: "token change"
            case .ignored: "ignored update"
            }
        }

        /// The mark centred on (`x`, `y`). Kinds differ in shape as well as colour, so that the chart still reads
        /// in grey print or for a reader who does not tell the colours apart.
        func shape(x: Double, y: Double) -> String {
            func point(_ dx: Double, _ dy: Double) -> String {
                "\(SVGCanvas.number(x + dx)),\(SVGCanvas.number(y + dy))"
            }
            switch self {
            case .content:
                return "<circle cx=\"\(SVGCanvas.number(x))\" cy=\"\(SVGCanvas.number(y))\" r=\"5\" fill=\"#4e79a7\"/>"
            case .alert:
                return "<polygon points=\"\(point(-6, -6)) \(point(6, -6)) \(point(0, 6))\" fill=\"#edc948\" "
                    + "stroke=\"#8a6d00\"/>"
            case .token:
                return "<polygon points=\"\(point(0, -6)) \(point(6, 0)) \(point(0, 6)) \(point(-6, 0))\" "
                    + "fill=\"#b07aa1\"/>"
            case .ignored:
                // Two thin strokes are hard to hover: a transparent square under them takes the pointer.
                return "<rect x=\"\(SVGCanvas.number(x - 6))\" y=\"\(SVGCanvas.number(y - 6))\" width=\"12\" "
                    + "height=\"12\" fill=\"#ffffff\" fill-opacity=\"0\"/>"
                    + "<line x1=\"\(SVGCanvas.number(x - 5))\" y1=\"\(SVGCanvas.number(y - 5))\" "
                    + "x2=\"\(SVGCanvas.number(x + 5))\" y2=\"\(SVGCanvas.number(y + 5))\" stroke=\"#d62728\" "
                    + "stroke-width=\"2.5\"/>"
                    + "<line x1=\"\(SVGCanvas.number(x - 5))\" y1=\"\(SVGCanvas.number(y + 5))\" "
                    + "x2=\"\(SVGCanvas.number(x + 5))\" y2=\"\(SVGCanvas.number(y - 5))\" stroke=\"#d62728\" "
                    + "stroke-width=\"2.5\"/>"
            }
        }

        /// The y of the row's centre line.
        var rowY: Double {
            let index = Double(MarkKind.allCases.firstIndex(of: self) ?? 0)
            return Layout.firstLaneY + index * Layout.laneGap
        }
    }

    /// One event as a mark: where it goes, what its tooltip says, and a short label for alerts.
    struct Mark {
        var kind: MarkKind
        var at: Date
        var title: String
        var label: String?
        var reason: ActivityIgnoreReason?
    }

    /// The events that are not state changes and fall inside the window, as marks.
    var marks: [Mark] {
        events.compactMap { event in
            guard window.contains(event.at) else { return nil }
            let when = "\(ChartTime.stamp(event.at)) · "
            let source = event.source.rawValue
            switch event.change {
            case .state:
                return nil
            case .content(let content):
                var detail = "content from \(source): \(Self.shortened(content.state.canonicalText, to: 400))"
                if let stale = content.staleDate { detail += " · stale at \(ChartTime.stamp(stale))" }
                if content.relevanceScore != 0 { detail += " · relevance \(content.relevanceScore)" }
                return Mark(kind: .content, at: event.at, title: when + detail)
            case .alert(let alert):
                let sound = alert.sound ?? "default"
                let title = when + "alert from \(source): \(alert.title) — \(alert.body) (sound: \(sound))"
                return Mark(kind: .alert, at: event.at, title: title, label: Self.shortened(alert.title, to: 28))
            case .token(let token):
                let hex = token.map { String(format: "%02x", $0) }.joined()
                return Mark(kind: .token, at: event.at, title: when + "new push token from \(source): \(hex)")
            case .ignored(let ignored):
                let what = "ignored \(source) \(ignored.event ?? "update"): \(ignored.reason.rawValue) "
                    + "— \(ignored.detail)"
                return Mark(kind: .ignored, at: event.at, title: when + what, reason: ignored.reason)
            }
        }
    }

    func drawMarks(on canvas: inout SVGCanvas, scale: TimeScale) {
        for kind in MarkKind.allCases {
            canvas.text(kind.rowLabel, x: Layout.plotLeft - 10, y: kind.rowY + 4, anchor: "end", size: 12)
            canvas.line(x1: Layout.plotLeft, y1: kind.rowY, x2: Layout.plotRight, y2: kind.rowY, stroke: "#eeeeee")
        }
        canvas.raw("<g class=\"marks\">")
        for mark in marks {
            let x = scale.x(mark.at)
            let y = mark.kind.rowY
            var attributes = SVGCanvas.attributes(["class": "mark", "data-kind": mark.kind.rawValue])
            if let reason = mark.reason { attributes += SVGCanvas.attributes(["data-reason": reason.rawValue]) }
            canvas.raw("<g\(attributes)><title>\(SVGCanvas.escape(mark.title))</title>"
                       + "\(mark.kind.shape(x: x, y: y))</g>")
            if let label = mark.label {
                canvas.text(label, x: x + 9, y: y + 4, size: 10, fill: "#555")
            }
        }
        canvas.raw("</g>")
    }

    func drawLegend(on canvas: inout SVGCanvas) {
        let y = Layout.legendY
        canvas.raw("<g class=\"legend\">")
        canvas.text("states", x: Layout.plotLeft - 10, y: y + 4, anchor: "end", size: 12, weight: "bold")
        var x = Layout.plotLeft
        for state in ActivityState.allCases {
            canvas.rect(x: x, y: y - 7, width: 22, height: 14, fill: StateStyle(state).fill, stroke: "#999")
            canvas.text(state.rawValue, x: x + 28, y: y + 4, size: 12)
            x += 112
        }
        canvas.rect(x: x, y: y - 7, width: 22, height: 14, fill: StateStyle.unrecordedFill, stroke: "#bbb")
        canvas.text("no state recorded", x: x + 28, y: y + 4, size: 12)

        let marksY = y + 28
        canvas.text("marks", x: Layout.plotLeft - 10, y: marksY + 4, anchor: "end", size: 12, weight: "bold")
        x = Layout.plotLeft
        for kind in MarkKind.allCases {
            canvas.raw(kind.shape(x: x + 8, y: marksY))
            canvas.text(kind.legendLabel, x: x + 22, y: marksY + 4, size: 12)
            x += 150
        }
        canvas.raw("</g>")
    }

    /// `text` cut to `limit` characters with an ellipsis, so that one long value does not swamp a tooltip or run
    /// over its neighbours.
    static func shortened(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    /// How a state is painted.
    struct StateStyle {
        let fill: String
        let textColor: String

        init(_ state: ActivityState) {
            switch state {
            case .pending: (fill, textColor) = ("#76b7b2", "#1d3f3c")
            case .active: (fill, textColor) = ("#59a14f", "#ffffff")
            // Hatched: the activity still showed, but what it showed was out of date.
            case .stale: (fill, textColor) = ("url(#stale-hatch)", "#6b3500")
            case .ended: (fill, textColor) = ("#4e79a7", "#ffffff")
            case .dismissed: (fill, textColor) = ("#d9d9d9", "#555555")
            }
        }

        /// Time before the first recorded state.
        static let unrecordedFill = "#f4f6f8"
    }

    /// The stale state's hatching, referenced by its fill.
    static let patterns = "<defs><pattern id=\"stale-hatch\" patternUnits=\"userSpaceOnUse\" width=\"8\" height=\"8\" "
        + "patternTransform=\"rotate(45)\"><rect width=\"8\" height=\"8\" fill=\"#fbe3c6\"/>"
        + "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"8\" stroke=\"#f28e2b\" stroke-width=\"4\"/></pattern></defs>"
}
