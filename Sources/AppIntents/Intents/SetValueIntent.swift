/// An intent that sets one value, as a toggle control does: the system sets ``value`` to the toggle's new state,
/// then calls ``AppIntent/perform()``.
///
/// Declared with a parameter named `value`, for example `@Parameter(title: "On") var value: Bool`.
///
/// Mirrors [SetValueIntent](https://developer.apple.com/documentation/appintents/setvalueintent).
public protocol SetValueIntent<ValueType>: AppIntent {
    /// The type of the value the intent sets, for example `Bool` for a toggle.
    associatedtype ValueType: _IntentValue

    /// The value to set; the system assigns it before ``AppIntent/perform()``.
    var value: ValueType { get set }
}
