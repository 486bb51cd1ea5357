/// The concrete result type behind `.result()` and its variants.
///
/// `Never` in a position means that part is absent. `Content` is always `Never`: WidgetHost has no
/// SwiftUI snippets.
///
/// Mirrors [IntentResultContainer](https://developer.apple.com/documentation/appintents/intentresultcontainer).
public struct IntentResultContainer<Value: Sendable, OpenedIntent: Sendable, Content: Sendable, Dialog: Sendable>:
    IntentResult, ReturnsValue
{
    /// The returned value, if the result has one.
    public let value: Value?
    /// The intent to run next, if any.
    public let opensIntent: OpenedIntent?
    /// The dialog, if the result has one.
    public let dialog: IntentDialog?
    /// ``value`` as hosts read it, made where the result is built (specialized, as the builders are inlinable):
    /// unwrapped when read, in the container's generic code, it looked `Optional<Value>`'s metadata up each time.
    public let returnedValue: (any Sendable)?

    @inlinable init(value: Value?, opensIntent: OpenedIntent?, dialog: IntentDialog?) {
        self.value = value
        self.opensIntent = opensIntent
        self.dialog = dialog
        self.returnedValue = value.map { $0 }
    }
}

extension IntentResultContainer: ProvidesDialog where Dialog == IntentDialog {}

extension IntentResultContainer: OpensIntent where OpenedIntent: AppIntent {}
