/// A fixed set of choices (an enum with raw values) that intents take as a parameter.
///
/// Widget configurations store a case's raw value as a string, so `RawValue` must convert to and
/// from a string losslessly (`String` and `Int` do).
///
/// Mirrors [AppEnum](https://developer.apple.com/documentation/appintents/appenum).
public protocol AppEnum: _IntentValue, CaseIterable, RawRepresentable, Hashable, Sendable
where RawValue: LosslessStringConvertible, UnwrappedType == Self {
    /// The name of the type as shown to people, for example "Priority".
    static var typeDisplayRepresentation: TypeDisplayRepresentation { get }

    /// How each case is shown to people.
    static var caseDisplayRepresentations: [Self: DisplayRepresentation] { get }
}
