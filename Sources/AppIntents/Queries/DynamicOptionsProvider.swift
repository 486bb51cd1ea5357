/// Supplies a parameter's choices at run time, and optionally its default.
///
/// Mirrors [DynamicOptionsProvider](https://developer.apple.com/documentation/appintents/dynamicoptionsprovider).
public protocol DynamicOptionsProvider: Sendable {
    /// The collection of choices; an array of the parameter's type.
    associatedtype Result: Sequence
    /// The type of the default; the parameter's type.
    associatedtype DefaultValue = Result.Element

    /// Returns the choices to offer.
    func results() async throws -> Result

    /// Returns the value to use when none was chosen; `nil` (the default) for none.
    func defaultResult() async -> DefaultValue?
}

extension DynamicOptionsProvider {
    /// No default value.
    public func defaultResult() async -> DefaultValue? { nil }
}
