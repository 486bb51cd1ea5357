/// A parameter's `optionsProvider`, with its types erased so that hosts can call it.
@usableFromInline struct ParameterOptions: Sendable {
    let results: @Sendable () async throws -> [IntentParameterValue]
    let defaultResult: @Sendable () async -> IntentParameterValue?
    /// Set when the provider is an entity query: it then serves entity look-ups too.
    let entityQuery: (any AnyEntityQuery)?

    init<Provider: DynamicOptionsProvider>(provider: Provider)
    where Provider.Result.Element: _IntentValue, Provider.DefaultValue == Provider.Result.Element {
        results = { try await provider.results().map(\._parameterValue) }
        defaultResult = { await provider.defaultResult()?._parameterValue }
        entityQuery = (provider as? any EntityQuery).map { $0.eraseToAnyEntityQuery() }
    }
}
