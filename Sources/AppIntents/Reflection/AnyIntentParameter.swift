/// An intent parameter seen by a host that does not know the intent's concrete type.
///
/// Get them from an intent with ``AppIntent/parameters()``. Assignment semantics:
/// - ``assign(_:)`` with `nil` resets the parameter to how `init()` left it (its `default:`, or no
///   value); with `.null` it sets an optional parameter to `nil` and rejects a required one;
/// - entity parameters take entities, not ids: look the id up with ``entityQuery()`` and call
///   ``assign(entity:)``.
///
/// `IntentParameter` is the only conforming type.
public protocol AnyIntentParameter: AnyObject, Sendable {
    /// The parameter's name as shown to people.
    var title: LocalizedStringResource { get }
    /// The parameter's longer explanation, if any.
    var descriptionText: String? { get }
    /// The type of value the parameter takes.
    var kind: IntentParameterKind { get }
    /// Whether the parameter's type is optional, so that it may be left without a value.
    var isOptional: Bool { get }
    /// The parameter's `default:` value, if it has one.
    var defaultValue: IntentParameterValue? { get }
    /// The parameter's value now: `nil` when a required parameter has none, `.null` when an optional
    /// one has none.
    var currentValue: IntentParameterValue? { get }

    /// Sets the parameter from a stored value, checking its type.
    ///
    /// - Parameter value: The value; `nil` resets the parameter to its `default:` (or no value).
    /// - Throws: ``ParameterValueError`` naming the expected kind and the value given.
    func assign(_ value: IntentParameterValue?) throws(ParameterValueError)

    /// The query that finds this parameter's entities: its `optionsProvider` when that is an entity
    /// query, else the entity type's `defaultQuery`; `nil` for parameters that are not entities.
    func entityQuery() -> (any AnyEntityQuery)?

    /// Sets an entity parameter to a resolved entity, or to `nil`.
    ///
    /// - Throws: ``ParameterValueError`` when the entity is of another type, when `nil` is given for
    ///   a required parameter, or when the parameter is not an entity.
    func assign(entity: ResolvedEntity?) throws(ParameterValueError)

    /// The choices from the parameter's `optionsProvider`, or `nil` when it has none.
    ///
    /// Entity parameters answer through ``entityQuery()`` instead.
    func dynamicOptions() async throws -> [IntentParameterValue]?

    /// The `optionsProvider`'s `defaultResult()`, or `nil` when it has none or gives none.
    func dynamicDefault() async -> IntentParameterValue?
}
