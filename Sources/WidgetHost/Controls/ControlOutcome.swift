import JSON

/// What performing a control did: the intent's outcome, and the control reloads that followed.
public struct ControlOutcome: Sendable, Hashable {
    /// The placed control performed.
    public var controlID: String
    /// The intent's outcome, as for a widget's intent: its changes, the widget reloads, dry run, idempotency.
    public var intent: IntentOutcome
    /// The control reloads run after the commit: the performed control first, then those the intent asked for through
    /// `ControlCenter`. Empty for a dry run and for a replay (the first perform ran them).
    public var reloads: [ControlReload]

    /// The control's value after the reloads (the performed control's read); nil for a button, a dry run or a replay.
    public var value: JSONValue? {
        reloads.first { $0.instanceID == controlID && $0.reason == .performed }?.value
    }
}
