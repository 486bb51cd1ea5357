/// Read access to a result's parts for hosts, which see results as `any IntentResult`: nothing, unless the result
/// is one that `.result(...)` built.
extension IntentResult {
    /// No value.
    public var returnedValue: (any Sendable)? { nil }

    /// No dialog.
    public var returnedDialog: IntentDialog? { nil }

    /// No intent to run next.
    public var followUpIntent: (any AppIntent)? { nil }
}

extension IntentResultContainer {
    /// The dialog the intent returned, if any.
    public var returnedDialog: IntentDialog? { dialog }

    /// The intent the result asks to run next, if any.
    public var followUpIntent: (any AppIntent)? { opensIntent.flatMap { $0 as? any AppIntent } }
}
