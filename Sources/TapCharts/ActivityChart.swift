import ActivityKit
import Foundation
import WidgetHost

/// One Live Activity's life as an SVG timeline: the states it went through, and every update, alert, token and
/// ignored update along the way.
///
/// A device shows only the current state of an activity; when a delivery card froze or vanished, the question is
/// what happened when. The chart lays the engine's history over a time axis in UTC (from the request to `until`):
/// a band coloured by state (stale hatched, as the content was out of date while it still showed), then one row
/// of marks per kind of event. An ignored update is a red cross whose tooltip gives the reason code, since the
/// device would have dropped it without a word. Every segment and mark has a `<title>`, which browsers show on
/// hover.
///
/// The band starts at the first `.state` event; time before it is drawn grey as "no state recorded" rather than
/// guessed. Events of other activities are left out, so `history` may be the engine's whole log; events outside
/// the window are clipped.
///
/// For tools that read the SVG, state segments are `<rect class="state" data-state="…">` and marks are
/// `<g class="mark" data-kind="content|alert|token|ignored">` (ignored ones with `data-reason`).
public struct ActivityChart: Sendable {
    /// The activity charted.
    public let activity: ActivityRecord
    /// Its events in recorded order, also those outside the window: a state entered before it colours its start.
    let events: [ActivityEvent]
    /// From the request to `until` (or to the request, if `until` is earlier).
    let window: ClosedRange<Date>

    /// Charts `activity` from its request to `until`.
    /// - Parameters:
    ///   - activity: The activity; its id picks its events out of `history`, its request date starts the axis.
    ///   - history: Its events, in any order (they are put in recorded order); other activities' are ignored.
    ///   - until: Where the axis ends, usually now. A date before the request gives a window of no length.
    public init(activity: ActivityRecord, history: [ActivityEvent], until: Date) {
        self.activity = activity
        window = activity.requestedAt...max(activity.requestedAt, until)
        events = history.filter { $0.activityID == activity.id }.sorted { $0.sequence < $1.sequence }
    }

    /// The chart as a standalone SVG document (well-formed XML).
    public var svg: String {
        var canvas = SVGCanvas(width: Layout.width, height: Layout.height)
        let scale = TimeScale(window: window, left: Layout.plotLeft, right: Layout.plotRight)
        let heading = "\(activity.attributesType) \(activity.id)"
        canvas.raw(Self.patterns)
        canvas.text(heading, x: Layout.width / 2, y: 32, anchor: "middle", size: 18, weight: "bold")
        canvas.text(subtitle, x: Layout.width / 2, y: 54, anchor: "middle", size: 12, fill: "#555")
        let ticks = Self.ticks(in: window)
        // Grid lines first, so that the band and the marks are drawn over them.
        for tick in ticks.dates {
            canvas.line(x1: scale.x(tick), y1: Layout.bandTop, x2: scale.x(tick), y2: Layout.axisY, stroke: "#e5e5e5",
                        dash: "2 3")
        }
        drawBand(on: &canvas, scale: scale)
        drawMarks(on: &canvas, scale: scale)
        drawAxis(on: &canvas, scale: scale, ticks: ticks.dates, step: ticks.step)
        drawLegend(on: &canvas)
        return canvas.document(title: heading)
    }

    /// What the heading leaves out: the window, who started the activity, how it takes pushes, its state now.
    private var subtitle: String {
        var channel = activity.push.name
        if let id = activity.push.channelID { channel += " \(id)" }
        let span = window.upperBound.timeIntervalSince(window.lowerBound)
        return "requested \(ChartTime.stamp(window.lowerBound)), shown to \(ChartTime.stamp(window.upperBound)) "
            + "(\(ChartTime.duration(span))) · started by \(activity.startedBy.rawValue) · push: \(channel) "
            + "· state now: \(activity.state.rawValue)"
    }

    /// Where things go; one fixed size, so that charts of different activities compare side by side.
    enum Layout {
        static let width = 980.0
        static let height = 424.0
        static let plotLeft = 130.0
        static let plotRight = 920.0
        static let bandTop = 78.0
        static let bandHeight = 36.0
        static let firstLaneY = 146.0
        static let laneGap = 30.0
        static let axisY = 270.0
        static let legendY = 352.0
    }

    // MARK: The state band

    private func drawBand(on canvas: inout SVGCanvas, scale: TimeScale) {
        let top = Layout.bandTop
        let height = Layout.bandHeight
        canvas.text("state", x: Layout.plotLeft - 10, y: top + height / 2 + 4, anchor: "end", size: 12,
                    weight: "bold")
        canvas.raw("<g class=\"states\">")
        guard scale.span > 0 else {
            canvas.text("no time to show: the window ends when the activity was requested", x: Layout.plotLeft + 6,
                        y: top + height / 2 + 4, size: 12, fill: "#777")
            canvas.raw("</g>")
            return
        }
        let spans = Self.spans(of: events, in: window)
        let recordedFrom = spans.first?.from ?? window.upperBound
        if recordedFrom > window.lowerBound {
            let title = "no state recorded: \(ChartTime.stamp(window.lowerBound)) to \(ChartTime.stamp(recordedFrom)) "
                + "(\(ChartTime.duration(recordedFrom.timeIntervalSince(window.lowerBound))))"
            canvas.raw("<rect" + SVGCanvas.attributes([
                "class": "unrecorded", "x": SVGCanvas.number(scale.x(window.lowerBound)), "y": SVGCanvas.number(top),
                "width": SVGCanvas.number(scale.x(recordedFrom) - scale.x(window.lowerBound)),
                "height": SVGCanvas.number(height), "fill": StateStyle.unrecordedFill, "stroke": "#bbb",
                "stroke-dasharray": "4 3",
            ]) + "><title>\(SVGCanvas.escape(title))</title></rect>")
        }
        for span in spans {
            let x = scale.x(span.from)
            let width = scale.x(span.to) - x
            let style = StateStyle(span.state)
            let title = "\(span.state.rawValue): \(ChartTime.stamp(span.from)) to \(ChartTime.stamp(span.to)) "
                + "(\(ChartTime.duration(span.to.timeIntervalSince(span.from)))), set by \(span.source.rawValue)"
            canvas.raw("<rect" + SVGCanvas.attributes([
                "class": "state", "data-state": span.state.rawValue, "x": SVGCanvas.number(x),
                "y": SVGCanvas.number(top), "width": SVGCanvas.number(width), "height": SVGCanvas.number(height),
                "fill": style.fill, "stroke": "#ffffff",
            ]) + "><title>\(SVGCanvas.escape(title))</title></rect>")
            // A name only where it fits; the tooltip and legend say it everywhere else.
            if width >= 64 {
                canvas.text(span.state.rawValue, x: x + width / 2, y: top + height / 2 + 4, anchor: "middle",
                            size: 12, weight: "bold", fill: style.textColor)
            }
        }
        canvas.raw("</g>")
    }

    // MARK: The time axis

    private func drawAxis(on canvas: inout SVGCanvas, scale: TimeScale, ticks: [Date], step: TimeInterval) {
        let y = Layout.axisY
        canvas.raw("<g class=\"axis\">")
        canvas.line(x1: Layout.plotLeft, y1: y, x2: Layout.plotRight, y2: y, stroke: "#333")
        let crossesDays = ChartTime.differentDays(window.lowerBound, window.upperBound)
        var labelledDay: String?
        for tick in ticks {
            let x = scale.x(tick)
            canvas.line(x1: x, y1: y, x2: x, y2: y + 5, stroke: "#333")
            canvas.text(ChartTime.clock(tick, seconds: step > 0 && step < 60), x: x, y: y + 18, anchor: "middle",
                        size: 11)
            // The date under the first tick of each day, so that 00:00 is not read as the start's own day.
            let day = ChartTime.day(tick)
            if crossesDays && day != labelledDay {
                canvas.text(day, x: x, y: y + 32, anchor: "middle", size: 10, fill: "#555")
                labelledDay = day
            }
        }
        canvas.text("time (UTC)", x: (Layout.plotLeft + Layout.plotRight) / 2, y: y + 54, anchor: "middle",
                    size: 12)
        canvas.raw("</g>")
    }
}

extension ActivityChart {
    /// The chart of one activity of `activities`, from its request to `until`.
    /// - Throws: `ActivityError.unknownActivity` when there is no such activity.
    public static func draw(_ activities: LiveActivities, activityID: String, until: Date) throws -> String {
        let activity = try activities.activity(id: activityID)
        return ActivityChart(activity: activity, history: try activities.history(activityID: activityID),
                             until: until).svg
    }
}
