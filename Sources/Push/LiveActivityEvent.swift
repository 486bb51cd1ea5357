/// What a Live Activity push does: the `event` of its `aps`.
public enum LiveActivityEvent: String, Sendable, Hashable, CaseIterable {
    /// Starts an activity (a push-to-start, sent to the attributes type's push-to-start token).
    case start
    /// Shows new content.
    case update
    /// Ends the activity, with final content if it has some.
    case end
}
