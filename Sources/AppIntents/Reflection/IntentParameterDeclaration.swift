/// A snapshot of one parameter as declared: what hosts list when describing an intent type.
public struct IntentParameterDeclaration: Sendable, Hashable, Codable {
    /// The property name, for example `"project"`.
    public var name: String
    /// The title as shown to people.
    public var title: String
    /// The longer explanation, if any.
    public var descriptionText: String?
    /// The type of value the parameter takes.
    public var kind: IntentParameterKind
    /// Whether the parameter may be left without a value.
    public var isOptional: Bool
    /// The `default:` value, if any.
    public var defaultValue: IntentParameterValue?

    /// Creates a snapshot.
    public init(
        name: String,
        title: String,
        descriptionText: String?,
        kind: IntentParameterKind,
        isOptional: Bool,
        defaultValue: IntentParameterValue?
    ) {
        self.name = name
        self.title = title
        self.descriptionText = descriptionText
        self.kind = kind
        self.isOptional = isOptional
        self.defaultValue = defaultValue
    }

    /// Snapshots a live parameter.
    public init(name: String, parameter: any AnyIntentParameter) {
        self.init(
            name: name,
            title: parameter.title.defaultValue,
            descriptionText: parameter.descriptionText,
            kind: parameter.kind,
            isOptional: parameter.isOptional,
            defaultValue: parameter.defaultValue
        )
    }
}
