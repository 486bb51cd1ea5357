/// How a type (an entity or enum type) is named to people, for example "Project".
///
/// Mirrors [TypeDisplayRepresentation](https://developer.apple.com/documentation/appintents/typedisplayrepresentation).
public struct TypeDisplayRepresentation: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The type's name.
    public var name: LocalizedStringResource
    /// The name with a count, for example "\(placeholder: .int) projects", if given.
    public var numericFormat: LocalizedStringResource?

    /// Creates a type representation.
    public init(name: LocalizedStringResource, numericFormat: LocalizedStringResource? = nil) {
        self.name = name
        self.numericFormat = numericFormat
    }

    /// Creates a type representation whose name is a string literal.
    public init(stringLiteral value: String) {
        self.init(name: LocalizedStringResource(value))
    }

    /// Creates a type representation whose name is an interpolated string.
    public init(stringInterpolation: LocalizedStringResource.StringInterpolation) {
        self.init(name: LocalizedStringResource(stringInterpolation: stringInterpolation))
    }
}
