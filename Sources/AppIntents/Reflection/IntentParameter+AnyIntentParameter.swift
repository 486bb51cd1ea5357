extension IntentParameter: AnyIntentParameter {
    public var descriptionText: String? { descriptionResource?.defaultValue }

    public var kind: IntentParameterKind { Value._parameterKind }

    public var isOptional: Bool { Value._emptyValue != nil }

    public var defaultValue: IntentParameterValue? { defaultUnwrappedValue?._parameterValue }

    public var currentValue: IntentParameterValue? {
        storedValue?._parameterValue ?? Value._emptyValue?._parameterValue
    }

    public func assign(_ value: IntentParameterValue?) throws(ParameterValueError) {
        guard let value else {
            replaceStoredValue(defaultBox.map { makeBox(Value._wrap($0.value)) })
            return
        }
        if let box = decodeBox(value) {
            replaceStoredValue(box)
            return
        }
        throw error(for: value, reason: reason(rejecting: value))
    }

    public func entityQuery() -> (any AnyEntityQuery)? {
        if let query = options?.entityQuery { return query }
        guard let entityType = Value.UnwrappedType.self as? any AppEntity.Type else { return nil }
        return Self.defaultQuery(of: entityType)
    }

    public func assign(entity: ResolvedEntity?) throws(ParameterValueError) {
        guard let entity else {
            try assign(.null)
            return
        }
        guard case .entity = kind, let typed = entity.entity as? Value.UnwrappedType else {
            throw error(for: .entity(id: entity.id), reason: kind.isEntity ? .entityTypeMismatch : .typeMismatch)
        }
        replaceStoredValue(makeBox(Value._wrap(typed)))
    }

    public func dynamicOptions() async throws -> [IntentParameterValue]? {
        guard let options else { return nil }
        return try await options.results()
    }

    public func dynamicDefault() async -> IntentParameterValue? {
        await options?.defaultResult()
    }

    private static func defaultQuery<Entity: AppEntity>(of type: Entity.Type) -> any AnyEntityQuery {
        Entity.defaultQuery.eraseToAnyEntityQuery()
    }

    private func reason(rejecting value: IntentParameterValue) -> ParameterValueError.Reason {
        switch (kind, value) {
        case (_, .null): return .missingValue
        case (.enumeration, .enumCase), (.enumeration, .string), (.enumeration, .int): return .notACase
        case (.entity, .entity), (.entity, .string), (.entity, .int): return .entityNeedsQuery
        default: return .typeMismatch
        }
    }

    private func error(for value: IntentParameterValue, reason: ParameterValueError.Reason) -> ParameterValueError {
        ParameterValueError(
            parameterTitle: title.defaultValue,
            expected: kind,
            expectedOptional: isOptional,
            got: value,
            reason: reason
        )
    }
}

extension IntentParameterKind {
    var isEntity: Bool {
        if case .entity = self { return true }
        return false
    }
}
