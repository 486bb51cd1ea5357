/// A type an `@Parameter` can hold: `Bool`, `Int`, `Double`, `String`, `Date`, `URL`, any
/// ``AppEnum``, any ``AppEntity``, and optionals of these.
///
/// The name is Apple's; user code never mentions it. Its requirements are how ``IntentParameter``
/// converts values for hosts without knowing concrete types; they are implemented here for every
/// supported type and are not meant to be implemented elsewhere.
///
/// Mirrors the `_IntentValue` constraint on [IntentParameter](https://developer.apple.com/documentation/appintents/intentparameter).
public protocol _IntentValue: Sendable {
    /// The type without its optional: `ProjectEntity` for `ProjectEntity?`, else `Self`.
    associatedtype UnwrappedType: _IntentValue = Self

    /// The kind of the unwrapped type.
    static var _parameterKind: IntentParameterKind { get }

    /// The value meaning "nothing": `.some(nil)` for optionals, `nil` for everything else.
    static var _emptyValue: Self? { get }

    /// Wraps an unwrapped value (identity for non-optionals).
    static func _wrap(_ value: UnwrappedType) -> Self

    /// Converts a stored value into a typed one; `nil` when it does not fit.
    static func _decode(_ value: IntentParameterValue) -> Self?

    /// This value in stored form.
    var _parameterValue: IntentParameterValue { get }
}

extension _IntentValue where UnwrappedType == Self {
    public static var _emptyValue: Self? { nil }

    public static func _wrap(_ value: Self) -> Self { value }
}

extension Optional: _IntentValue where Wrapped: _IntentValue {
    public typealias UnwrappedType = Wrapped

    public static var _parameterKind: IntentParameterKind { Wrapped._parameterKind }

    public static var _emptyValue: Self? { .some(.none) }

    public static func _wrap(_ value: Wrapped) -> Self { .some(value) }

    public static func _decode(_ value: IntentParameterValue) -> Self? {
        if value == .null { return .some(.none) }
        return Wrapped._decode(value).map(Optional.some)
    }

    public var _parameterValue: IntentParameterValue {
        map(\._parameterValue) ?? .null
    }
}
