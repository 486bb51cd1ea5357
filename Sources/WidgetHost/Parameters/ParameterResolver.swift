import AppIntents
import Foundation
import JSON

/// Turns one widget instance's raw JSON parameters into a configured intent, the way WidgetKit hands a
/// configured intent to `timeline(for:in:)`.
///
/// Rules, in declaration order of the intent's `@Parameter`s:
/// 1. A value given in JSON is type-checked against the parameter (errors name the parameter and what was
///    expected). Entity ids go through the entity's query; an id the query no longer returns (a deleted project)
///    is treated as missing and yields a ``TimelineDiagnostic/Code/deletedEntity`` diagnostic, never an error.
/// 2. A missing value takes the parameter's `default:`, then the query's `defaultResult()` (entities) or the
///    options provider's default, then nil for an optional parameter; a required parameter with none of these is
///    an error.
/// 3. A JSON member the intent does not declare is an error (a typo should not silently use the default).
///
/// A fresh `Intent()` is made for every resolution: `IntentParameter` is a class, so copies of one intent share
/// their values.
struct ParameterResolver<Intent: WidgetConfigurationIntent> {
    /// The outcome of resolving one instance's parameters.
    struct Resolution: @unchecked Sendable {
        // Safe to send: a freshly made intent that no other task holds; AppIntent is Sendable in Apple's shape,
        // the box exists only because the tuple with JSON is built here.
        var intent: Intent
        /// Canonical resolved values: entity ids, enum raw values, ISO 8601 dates, null for nil.
        var parameters: [String: JSONValue]
        var diagnostics: [TimelineDiagnostic]
    }

    let kind: String

    func resolve(_ raw: [String: JSONValue]) async throws -> Resolution {
        let intent = Intent()
        let parameters = intent.parameters()
        let names = parameters.map(\.name)
        if let unknown = raw.keys.sorted().first(where: { !names.contains($0) }) {
            throw EngineError.unknownParameter(kind: kind, parameter: unknown, known: names)
        }
        var resolved: [String: JSONValue] = [:]
        var diagnostics: [TimelineDiagnostic] = []
        for (name, parameter) in parameters {
            if let json = raw[name], json != .null {
                if let value = try await assignGiven(json, to: parameter, name: name, diagnostics: &diagnostics) {
                    resolved[name] = value
                    continue
                }
            }
            resolved[name] = try await assignMissing(parameter, name: name)
        }
        return Resolution(intent: intent, parameters: resolved, diagnostics: diagnostics)
    }

    /// Assigns a value the instance gave; nil when it named an entity that no longer exists.
    private func assignGiven(_ json: JSONValue, to parameter: any AnyIntentParameter, name: String,
                             diagnostics: inout [TimelineDiagnostic]) async throws -> JSONValue? {
        let value = try ParameterValueConversion.value(from: json, for: parameter.kind, parameter: name, kind: kind)
        guard case .entity(let id) = value else {
            try assign(value, to: parameter, name: name)
            return ParameterValueConversion.json(from: value)
        }
        guard let query = parameter.entityQuery() else {
            throw EngineError.invalidParameter(kind: kind, parameter: name, problem: "the entity type has no query")
        }
        if let entity = try await query.entities(forIdentifiers: [id]).first(where: { $0.id == id }) {
            try assign(entity: entity, to: parameter, name: name)
            return .string(entity.id)
        }
        diagnostics.append(TimelineDiagnostic(
            code: .deletedEntity, severity: .warning,
            message: "Parameter '\(name)' names \(query.entityTypeName) '\(id)', which no longer exists; "
                + "the parameter's default was used instead."))
        return nil
    }

    /// Fills a parameter that has no usable value: `default:`, then the query's or options' default, then nil.
    private func assignMissing(_ parameter: any AnyIntentParameter, name: String) async throws -> JSONValue {
        if let declared = parameter.defaultValue {
            if case .entity(let id) = declared, let query = parameter.entityQuery(),
               let entity = try await query.entities(forIdentifiers: [id]).first {
                try assign(entity: entity, to: parameter, name: name)
                return .string(entity.id)
            } else if case .entity = declared {
                // The declared default entity is gone too: fall through to the query's default.
            } else {
                try assign(declared, to: parameter, name: name)
                return ParameterValueConversion.json(from: declared)
            }
        }
        if let query = parameter.entityQuery(), let entity = await query.defaultResult() {
            try assign(entity: entity, to: parameter, name: name)
            return .string(entity.id)
        }
        if parameter.entityQuery() == nil, let dynamic = await parameter.dynamicDefault() {
            try assign(dynamic, to: parameter, name: name)
            return ParameterValueConversion.json(from: dynamic)
        }
        guard parameter.isOptional else { throw EngineError.missingParameter(kind: kind, parameter: name) }
        try assign(nil, to: parameter, name: name)
        return .null
    }

    private func assign(_ value: IntentParameterValue?, to parameter: any AnyIntentParameter, name: String) throws {
        do {
            try parameter.assign(value)
        } catch {
            throw EngineError.invalidParameter(kind: kind, parameter: name, problem: error.description)
        }
    }

    private func assign(entity: ResolvedEntity, to parameter: any AnyIntentParameter, name: String) throws {
        do {
            try parameter.assign(entity: entity)
        } catch {
            throw EngineError.invalidParameter(kind: kind, parameter: name, problem: error.description)
        }
    }
}
