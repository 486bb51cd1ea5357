/// What the system says or shows when an intent asks a question or reports a result.
///
/// Mirrors [IntentDialog](https://developer.apple.com/documentation/appintents/intentdialog).
public struct IntentDialog: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The full dialog, spoken or shown when there is room.
    public var full: LocalizedStringResource
    /// A shorter version for when the result is also shown on screen.
    public var supporting: LocalizedStringResource

    /// Creates a dialog whose full and supporting text are the same.
    public init(_ text: LocalizedStringResource) {
        self.init(full: text, supporting: text)
    }

    /// Creates a dialog with distinct full and supporting text.
    public init(full: LocalizedStringResource, supporting: LocalizedStringResource) {
        self.full = full
        self.supporting = supporting
    }

    /// Creates a dialog from a string literal.
    public init(stringLiteral value: String) {
        self.init(LocalizedStringResource(value))
    }

    /// Creates a dialog from an interpolated string.
    public init(stringInterpolation: LocalizedStringResource.StringInterpolation) {
        self.init(LocalizedStringResource(stringInterpolation: stringInterpolation))
    }
}
