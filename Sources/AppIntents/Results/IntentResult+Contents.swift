/// Read access to a result's parts for hosts, which see results as `any IntentResult`.
extension IntentResult {
    /// The value the intent returned, if any.
    public var returnedValue: (any Sendable)? { (self as? any IntentResultContents)?.anyValue }

    /// The dialog the intent returned, if any.
    public var returnedDialog: IntentDialog? { (self as? any IntentResultContents)?.anyDialog }

    /// The intent the result asks to run next, if any.
    public var followUpIntent: (any AppIntent)? { (self as? any IntentResultContents)?.anyOpenedIntent }
}

/// A result whose parts can be read without knowing its generic arguments.
protocol IntentResultContents {
    var anyValue: (any Sendable)? { get }
    var anyDialog: IntentDialog? { get }
    var anyOpenedIntent: (any AppIntent)? { get }
}

extension IntentResultContainer: IntentResultContents {
    var anyValue: (any Sendable)? { value.map { $0 as any Sendable } }
    var anyDialog: IntentDialog? { dialog }
    var anyOpenedIntent: (any AppIntent)? { opensIntent.flatMap { $0 as? any AppIntent } }
}
