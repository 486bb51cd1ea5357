/// What an intent's `perform()` returns; build one with `.result()` and its variants.
///
/// Mirrors [IntentResult](https://developer.apple.com/documentation/appintents/intentresult).
///
/// Its parts are requirements, not casts: a host reads a perform's result as `any IntentResult` on every perform,
/// and a cast to a protocol looked its conformance up at run time each time. A type of your own conforming to it
/// reports none of them (the defaults below).
public protocol IntentResult: Sendable {
    /// The value the intent returned, if any.
    var returnedValue: (any Sendable)? { get }
    /// The dialog the intent returned, if any.
    var returnedDialog: IntentDialog? { get }
    /// The intent the result asks to run next, if any.
    var followUpIntent: (any AppIntent)? { get }
}

/// A result that carries a value of type `Value`; write `some ReturnsValue<Int>`.
///
/// Mirrors [ReturnsValue](https://developer.apple.com/documentation/appintents/returnsvalue).
public protocol ReturnsValue<Value>: IntentResult {
    /// The type of the returned value.
    associatedtype Value: Sendable
}

/// A result that carries a dialog.
///
/// Mirrors [ProvidesDialog](https://developer.apple.com/documentation/appintents/providesdialog).
public protocol ProvidesDialog: IntentResult {}

/// A result that runs another intent afterwards.
///
/// Mirrors [OpensIntent](https://developer.apple.com/documentation/appintents/opensintent).
public protocol OpensIntent: IntentResult {}

// The builders are inlinable, so an intent's `perform()` builds its result specialized for its concrete types:
// unspecialized, each result looked its container's generic metadata up at run time.
extension IntentResult {
    /// A result with nothing in it.
    @inlinable public static func result() -> Self where Self == IntentResultContainer<Never, Never, Never, Never> {
        IntentResultContainer(value: nil, opensIntent: nil, dialog: nil)
    }

    /// A result that returns `value`.
    @inlinable public static func result<Value: Sendable>(
        value: Value
    ) -> Self where Self == IntentResultContainer<Value, Never, Never, Never> {
        IntentResultContainer(value: value, opensIntent: nil, dialog: nil)
    }

    /// A result that says or shows `dialog`.
    @inlinable public static func result(
        dialog: IntentDialog
    ) -> Self where Self == IntentResultContainer<Never, Never, Never, IntentDialog> {
        IntentResultContainer(value: nil, opensIntent: nil, dialog: dialog)
    }

    /// A result that returns `value` and says or shows `dialog`.
    @inlinable public static func result<Value: Sendable>(
        value: Value,
        dialog: IntentDialog
    ) -> Self where Self == IntentResultContainer<Value, Never, Never, IntentDialog> {
        IntentResultContainer(value: value, opensIntent: nil, dialog: dialog)
    }

    /// A result that runs `opensIntent` next.
    @inlinable public static func result<Intent: AppIntent>(
        opensIntent: Intent
    ) -> Self where Self == IntentResultContainer<Never, Intent, Never, Never> {
        IntentResultContainer(value: nil, opensIntent: opensIntent, dialog: nil)
    }

    /// A result that returns `value` and runs `opensIntent` next.
    @inlinable public static func result<Value: Sendable, Intent: AppIntent>(
        value: Value,
        opensIntent: Intent
    ) -> Self where Self == IntentResultContainer<Value, Intent, Never, Never> {
        IntentResultContainer(value: value, opensIntent: opensIntent, dialog: nil)
    }
}
