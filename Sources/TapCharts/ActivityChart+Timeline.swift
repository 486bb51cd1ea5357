import ActivityKit
import Foundation
import WidgetHost

extension ActivityChart {
    /// A stretch of time the activity spent in one state, clipped to the chart's window.
    struct StateSpan: Equatable {
        var state: ActivityState
        var from: Date
        var to: Date
        /// Who moved the activity into the state.
        var source: ActivityEventSource
    }

    /// The activity's states over `window`, one span per state it stayed in.
    ///
    /// A state lasts from its `.state` event to the next one (or the window's end). Events are taken in the order
    /// the engine recorded them (`sequence`), not by date, so a clock that stepped back shortens a span to nothing
    /// instead of reordering the activity's life. A repeated state continues its span: the screen did not change.
    /// A state entered before the window began is clipped to it, so its tail still shows.
    static func spans(of events: [ActivityEvent], in window: ClosedRange<Date>) -> [StateSpan] {
        var changes: [(state: ActivityState, at: Date, source: ActivityEventSource)] = []
        for event in events {
            guard case .state(let state) = event.change else { continue }
            if changes.last?.state == state { continue }
            changes.append((state, event.at, event.source))
        }
        var spans: [StateSpan] = []
        for (index, change) in changes.enumerated() {
            let end = index + 1 < changes.count ? changes[index + 1].at : window.upperBound
            let from = max(change.at, window.lowerBound)
            let to = min(end, window.upperBound)
            guard to > from else { continue }
            spans.append(StateSpan(state: change.state, from: from, to: to, source: change.source))
        }
        return spans
    }

    /// Where dates fall on the chart: `window` spread over `left...right`.
    ///
    /// A window of no length puts every date at `left` rather than dividing by zero.
    struct TimeScale {
        let window: ClosedRange<Date>
        let left: Double
        let right: Double

        var span: TimeInterval { window.upperBound.timeIntervalSince(window.lowerBound) }

        func x(_ date: Date) -> Double {
            guard span > 0 else { return left }
            let fraction = date.timeIntervalSince(window.lowerBound) / span
            return left + (right - left) * min(1, max(0, fraction))
        }
    }

    /// Tick spacings that read well on a clock, from a second to a week.
    private static let tickSteps: [TimeInterval] = [
        1, 2, 5, 10, 15, 30, 60, 2 * 60, 5 * 60, 10 * 60, 15 * 60, 30 * 60,
        3600, 2 * 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86400, 2 * 86400, 7 * 86400,
    ]

    /// At most about eight ticks on whole multiples of a round step, so that labels fall on times a reader
    /// would pick (10:15, not 10:13:07), and the step.
    ///
    /// Steps are counted from 1970 in UTC, where a day starts on a multiple of 86 400 seconds, so that day ticks
    /// fall on midnight UTC. A window of no length has one tick, at its start.
    static func ticks(in window: ClosedRange<Date>) -> (dates: [Date], step: TimeInterval) {
        let span = window.upperBound.timeIntervalSince(window.lowerBound)
        guard span > 0 else { return ([window.lowerBound], 0) }
        let step = tickSteps.first { span / $0 <= 8 } ?? (span / 8 / 86400).rounded(.up) * 86400
        let start = window.lowerBound.timeIntervalSince1970
        let first = (start / step).rounded(.up) * step
        let dates = stride(from: first, through: window.upperBound.timeIntervalSince1970, by: step)
            .map { Date(timeIntervalSince1970: $0) }
        return (dates, step)
    }
}
