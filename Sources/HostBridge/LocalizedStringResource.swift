/// A string to show to people, with the key it would be localized by.
///
/// WidgetHost has no string tables: a resource resolves to its development-language text,
/// ``defaultValue``. String literals and interpolations both work; an interpolation's ``key`` uses
/// Apple's format specifiers (`"Hello \(name)"` has the key `"Hello %@"`).
///
/// Mirrors [LocalizedStringResource](https://developer.apple.com/documentation/foundation/localizedstringresource).
public struct LocalizedStringResource: Sendable, Hashable, Codable, ExpressibleByStringInterpolation,
    CustomStringConvertible
{
    /// The key the string would be looked up by in a strings table.
    public var key: String

    /// The resolved text: the string with every interpolation filled in.
    public var defaultValue: String

    /// The strings table the key would be looked up in; `nil` means `Localizable`.
    public var table: String?

    /// Creates a resource whose key and text are the same string.
    ///
    /// - Parameters:
    ///   - keyAndValue: The key, also used as the text.
    ///   - table: The strings table; `nil` means `Localizable`.
    ///   - comment: A note for translators; ignored.
    public init(_ keyAndValue: String, table: String? = nil, comment: StaticString? = nil) {
        self.key = keyAndValue
        self.defaultValue = keyAndValue
        self.table = table
    }

    /// Creates a resource with a key distinct from its text.
    ///
    /// - Parameters:
    ///   - key: The key in the strings table.
    ///   - defaultValue: The text.
    ///   - table: The strings table; `nil` means `Localizable`.
    ///   - comment: A note for translators; ignored.
    public init(_ key: StaticString, defaultValue: String, table: String? = nil, comment: StaticString? = nil) {
        self.key = "\(key)"
        self.defaultValue = defaultValue
        self.table = table
    }

    /// Creates a resource from a string literal, which is both key and text.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// Creates a resource from an interpolated string.
    public init(stringInterpolation: StringInterpolation) {
        self.key = stringInterpolation.key
        self.defaultValue = stringInterpolation.value
        self.table = nil
    }

    /// The resolved text, ``defaultValue``.
    public var description: String { defaultValue }
}

extension String {
    /// Resolves a localized string resource to its text.
    ///
    /// Mirrors [init(localized:)](https://developer.apple.com/documentation/swift/string/init(localized:)-4ztxk).
    public init(localized resource: LocalizedStringResource) {
        self = resource.defaultValue
    }
}
