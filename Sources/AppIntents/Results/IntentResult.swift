/// What an intent's `perform()` returns; build one with `.result()` and its variants.
///
/// Mirrors [IntentResult](https://developer.apple.com/documentation/appintents/intentresult).
public protocol IntentResult: Sendable {}

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

extension IntentResult {
    /// A result with nothing in it.
    public static func result() -> Self where Self == IntentResultContainer<Never, Never, Never, Never> {
        IntentResultContainer(value: nil, opensIntent: nil, dialog: nil)
    }

    /// A result that returns `value`.
    public static func result<Value: Sendable>(
        value: Value
    ) -> Self where Self == IntentResultContainer<Value, Never, Never, Never> {
        IntentResultContainer(value: value, opensIntent: nil, dialog: nil)
    }

    /// A result that says or shows `dialog`.
    public static func result(
        dialog: IntentDialog
    ) -> Self where Self == IntentResultContainer<Never, Never, Never, IntentDialog> {
        IntentResultContainer(value: nil, opensIntent: nil, dialog: dialog)
    }

    /// A result that returns `value` and says or shows `dialog`.
    public static func result<Value: Sendable>(
        value: Value,
        dialog: IntentDialog
    ) -> Self where Self == IntentResultContainer<Value, Never, Never, IntentDialog> {
        IntentResultContainer(value: value, opensIntent: nil, dialog: dialog)
    }

    /// A result that runs `opensIntent` next.
    public static func result<Intent: AppIntent>(
        opensIntent: Intent
    ) -> Self where Self == IntentResultContainer<Never, Intent, Never, Never> {
        IntentResultContainer(value: nil, opensIntent: opensIntent, dialog: nil)
    }

    /// A result that returns `value` and runs `opensIntent` next.
    public static func result<Value: Sendable, Intent: AppIntent>(
        value: Value,
        opensIntent: Intent
    ) -> Self where Self == IntentResultContainer<Value, Intent, Never, Never> {
        IntentResultContainer(value: value, opensIntent: opensIntent, dialog: nil)
    }
}
