import ActivityKit
import Foundation

/// What the Lock Screen showed of one activity at one moment, rebuilt from its history.
public struct ActivityScreen: Sendable, Hashable {
    /// The activity.
    public var activityID: String
    /// The moment.
    public var at: Date
    /// Its state then; `nil` before it was requested.
    public var state: ActivityState?
    /// The content it showed then; `nil` before it was requested.
    public var content: ActivityContentValue?
    /// The last alert shown up to then, and when.
    public var lastAlert: ActivityAlert?
    /// When ``lastAlert`` was shown.
    public var lastAlertAt: Date?

    /// Whether it was on screen: requested, started and not yet dismissed.
    public var isVisible: Bool {
        switch state {
        case .active?, .stale?, .ended?: true
        case .pending?, .dismissed?, nil: false
        }
    }

    /// Whether its content was out of date (`context.isStale` in the activity's view).
    public var isStale: Bool { state == .stale }

    init(activityID: String, at date: Date, events: [ActivityEvent]) {
        self.activityID = activityID
        at = date
        for event in events {
            switch event.change {
            case .state(let state): self.state = state
            case .content(let content): self.content = content
            case .alert(let alert):
                lastAlert = alert
                lastAlertAt = event.at
            case .token, .ignored: break
            }
        }
    }
}
