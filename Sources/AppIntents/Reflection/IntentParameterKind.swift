/// The type of value a parameter takes, described for hosts (optionality is separate:
/// ``AnyIntentParameter/isOptional``).
public enum IntentParameterKind: Sendable, Hashable, Codable {
    /// `Bool`.
    case bool
    /// `Int`.
    case int
    /// `Double`.
    case double
    /// `String`.
    case string
    /// `Date`.
    case date
    /// `URL`.
    case url
    /// An `AppEnum` type and its cases.
    case enumeration(IntentEnumeration)
    /// An `AppEntity` type, named by its Swift type name, for example `"ProjectEntity"`.
    case entity(typeName: String)
}

/// An `AppEnum` type as hosts see it: its name and its cases in declaration order.
public struct IntentEnumeration: Sendable, Hashable, Codable {
    /// The Swift type name, for example `"Priority"`.
    public var typeName: String
    /// The type's name as shown to people (its `typeDisplayRepresentation`).
    public var displayName: String
    /// The cases, in `allCases` order.
    public var cases: [Case]

    /// Creates a description of an enum type.
    public init(typeName: String, displayName: String, cases: [Case]) {
        self.typeName = typeName
        self.displayName = displayName
        self.cases = cases
    }

    /// One case: the raw value configurations store and the title people see.
    public struct Case: Sendable, Hashable, Codable {
        /// The raw value in string form.
        public var rawValue: String
        /// The case's title from `caseDisplayRepresentations`, or the raw value when it has none.
        public var title: String

        /// Creates a case description.
        public init(rawValue: String, title: String) {
            self.rawValue = rawValue
            self.title = title
        }
    }
}

extension IntentParameterKind: CustomStringConvertible {
    /// A short name for error messages, for example `int`, `entity ProjectEntity` or
    /// `enum Priority (low, high)`.
    public var description: String {
        switch self {
        case .bool: return "bool"
        case .int: return "int"
        case .double: return "double"
        case .string: return "string"
        case .date: return "date"
        case .url: return "url"
        case .enumeration(let enumeration):
            return "enum \(enumeration.typeName) (\(enumeration.cases.map(\.rawValue).joined(separator: ", ")))"
        case .entity(let typeName): return "entity \(typeName)"
        }
    }
}
