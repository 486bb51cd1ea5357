/// What an app intent does, as shown to people.
///
/// Mirrors [IntentDescription](https://developer.apple.com/documentation/appintents/intentdescription).
public struct IntentDescription: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The description's text.
    public var descriptionText: LocalizedStringResource
    /// The category the intent is listed under, if any.
    public var categoryName: LocalizedStringResource?
    /// Extra words that find the intent in search.
    public var searchKeywords: [LocalizedStringResource]
    /// A name for the intent's result value, if any.
    public var resultValueName: LocalizedStringResource?

    /// Creates a description.
    public init(
        _ descriptionText: LocalizedStringResource,
        categoryName: LocalizedStringResource? = nil,
        searchKeywords: [LocalizedStringResource] = [],
        resultValueName: LocalizedStringResource? = nil
    ) {
        self.descriptionText = descriptionText
        self.categoryName = categoryName
        self.searchKeywords = searchKeywords
        self.resultValueName = resultValueName
    }

    /// Creates a description from a string literal.
    public init(stringLiteral value: String) {
        self.init(LocalizedStringResource(value))
    }

    /// Creates a description from an interpolated string.
    public init(stringInterpolation: LocalizedStringResource.StringInterpolation) {
        self.init(LocalizedStringResource(stringInterpolation: stringInterpolation))
    }
}
