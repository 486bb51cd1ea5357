/// How one value (an entity or an enum case) is shown to people: a title, maybe a subtitle and an
/// image.
///
/// Mirrors [DisplayRepresentation](https://developer.apple.com/documentation/appintents/displayrepresentation).
public struct DisplayRepresentation: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The main text.
    public var title: LocalizedStringResource
    /// Secondary text, if any.
    public var subtitle: LocalizedStringResource?
    /// An image, if any.
    public var image: Image?
    /// Other names people might use for the value.
    public var synonyms: [LocalizedStringResource]

    /// Creates a representation.
    public init(
        title: LocalizedStringResource,
        subtitle: LocalizedStringResource? = nil,
        image: Image? = nil,
        synonyms: [LocalizedStringResource] = []
    ) {
        self.title = title
        self.subtitle = subtitle
        self.image = image
        self.synonyms = synonyms
    }

    /// Creates a representation whose title is a string literal.
    public init(stringLiteral value: String) {
        self.init(title: LocalizedStringResource(value))
    }

    /// Creates a representation whose title is an interpolated string.
    public init(stringInterpolation: LocalizedStringResource.StringInterpolation) {
        self.init(title: LocalizedStringResource(stringInterpolation: stringInterpolation))
    }

    /// An image that identifies a value. WidgetHost records where it comes from and never loads it.
    ///
    /// Mirrors [DisplayRepresentation.Image](https://developer.apple.com/documentation/appintents/displayrepresentation/image).
    public struct Image: Sendable, Hashable {
        /// Where the image comes from.
        public enum Source: Sendable, Hashable {
            /// An SF Symbol name.
            case systemName(String)
            /// An image in the app's asset catalog.
            case named(String)
            /// An image at a URL.
            case url(URL)
            /// Image file data.
            case data(Data)
        }

        /// Where the image comes from.
        public var source: Source
        /// Whether the image is drawn as a template (tinted).
        public var isTemplate: Bool

        /// An SF Symbol.
        public init(systemName: String, isTemplate: Bool = false) {
            self.source = .systemName(systemName)
            self.isTemplate = isTemplate
        }

        /// An image in the app's asset catalog.
        public init(named name: String, isTemplate: Bool = false) {
            self.source = .named(name)
            self.isTemplate = isTemplate
        }

        /// An image at a URL.
        public init(url: URL, isTemplate: Bool = false) {
            self.source = .url(url)
            self.isTemplate = isTemplate
        }

        /// Image file data.
        public init(data: Data, isTemplate: Bool = false) {
            self.source = .data(data)
            self.isTemplate = isTemplate
        }
    }
}
