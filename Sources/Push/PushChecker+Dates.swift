import Foundation
import JSON

extension PushInspection {
    /// How far ahead of now a timestamp may be before it is a warning: clocks drift, but not by minutes.
    static let futureTolerance: TimeInterval = 300

    /// Above this a date is milliseconds, not seconds: 10^11 seconds since 1970 is the year 5138.
    static let millisecondsThreshold: Double = 1e11

    /// `timestamp`, `stale-date` and `dismissal-date`: seconds since 1970, in order, each where it belongs.
    mutating func checkDates(_ aps: [String: JSONValue], event: LiveActivityEvent?) {
        let timestamp = seconds(aps, "timestamp")
        if aps["timestamp"] == nil {
            report(.missingTimestamp, pointer: "/aps/timestamp",
                   "the aps has no timestamp; the device drops the push (send seconds since 1970)")
        }
        let stale = seconds(aps, "stale-date")
        let dismissal = seconds(aps, "dismissal-date")
        if let timestamp {
            if let lastTimestamp, timestamp <= lastTimestamp.timeIntervalSince1970 {
                report(.timestampNotLater, pointer: "/aps/timestamp", """
                    timestamp \(Self.text(timestamp)) is not later than the last one applied, \
                    \(Self.text(lastTimestamp.timeIntervalSince1970)); the device drops the push
                    """)
            }
            if timestamp > now.timeIntervalSince1970 + Self.futureTolerance {
                report(.timestampInFuture, pointer: "/aps/timestamp", """
                    timestamp \(Self.text(timestamp)) is after now (\(Self.text(now.timeIntervalSince1970))); \
                    the device will drop every push stamped with the true time until then
                    """)
            }
            if let stale, stale <= timestamp {
                report(.staleDateBeforeTimestamp, pointer: "/aps/stale-date", """
                    stale-date \(Self.text(stale)) is not after timestamp \(Self.text(timestamp)); the content \
                    arrives stale
                    """)
            }
        }
        if aps["dismissal-date"] != nil, event != .end, event != nil {
            report(.dismissalDateNotEnd, pointer: "/aps/dismissal-date",
                   "dismissal-date is read only on an end push; the device ignores it here")
        }
        if event == .update, aps["stale-date"] == nil {
            report(.updateWithoutStaleDate, pointer: "/aps/stale-date", """
                an update without stale-date: if updates stop, the Lock Screen keeps showing this content as current
                """)
        }
        if event == .end, dismissal == nil, aps["dismissal-date"] == nil {
            report(.endWithoutDismissalDate, pointer: "/aps/dismissal-date",
                   "an end without dismissal-date stays on the Lock Screen for up to four hours")
        }
    }

    /// A date member as seconds since 1970, or nil when absent or unreadable (reported).
    private mutating func seconds(_ aps: [String: JSONValue], _ key: String) -> Double? {
        guard let value = aps[key] else { return nil }
        let pointer = JSONPointer.appending([key], to: "/aps")
        guard let number = value.numberValue else {
            // A date-time string is the usual mistake; say which number it should have been.
            let hint = value.stringValue.flatMap { written in
                (try? DateTimeText.date(from: written)).map { "; '\(written)' is \(Self.text($0.timeIntervalSince1970))" }
            } ?? ""
            report(.invalidDate, pointer: pointer, "\(key) is \(value.typeName); it must be seconds since 1970\(hint)")
            return nil
        }
        if number > Self.millisecondsThreshold {
            report(.dateInMilliseconds, pointer: pointer, """
                \(key) is \(Self.text(number)), milliseconds since 1970; send seconds (\(Self.text(number / 1000)))
                """)
            return nil
        }
        guard number >= 0 else {
            report(.invalidDate, pointer: pointer, "\(key) is \(Self.text(number)); it must be seconds since 1970, not before")
            return nil
        }
        return number
    }

    /// Seconds as text without a needless `.0`.
    static func text(_ seconds: Double) -> String {
        seconds.rounded() == seconds && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
    }
}
