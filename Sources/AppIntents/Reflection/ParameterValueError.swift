/// Why a value could not be assigned to an intent parameter; names what was expected and what came.
public struct ParameterValueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// The value's type does not fit the parameter.
        case typeMismatch
        /// The value is not one of the enum's raw values.
        case notACase
        /// `null` was given for a parameter that is not optional.
        case missingValue
        /// An entity id was given: entity parameters are assigned through their query and
        /// ``AnyIntentParameter/assign(entity:)``.
        case entityNeedsQuery
        /// The resolved entity is of another type than the parameter's.
        case entityTypeMismatch
    }

    /// The parameter's title.
    public var parameterTitle: String
    /// The type the parameter takes.
    public var expected: IntentParameterKind
    /// Whether the parameter accepts `null`.
    public var expectedOptional: Bool
    /// The value that was given.
    public var got: IntentParameterValue
    /// What went wrong.
    public var reason: Reason

    /// Creates an error.
    public init(
        parameterTitle: String,
        expected: IntentParameterKind,
        expectedOptional: Bool,
        got: IntentParameterValue,
        reason: Reason
    ) {
        self.parameterTitle = parameterTitle
        self.expected = expected
        self.expectedOptional = expectedOptional
        self.got = got
        self.reason = reason
    }

    /// A sentence such as `parameter "Project" expects entity ProjectEntity, got int 3`.
    public var description: String {
        let expectation = expectedOptional ? "\(expected) or null" : "\(expected)"
        let head = "parameter \"\(parameterTitle)\" expects \(expectation), got \(got)"
        switch reason {
        case .typeMismatch, .missingValue: return head
        case .notACase: return head + " (not one of its cases)"
        case .entityNeedsQuery: return head + " (entity ids are resolved through the entity's query)"
        case .entityTypeMismatch: return head + " (an entity of another type)"
        }
    }
}
