import AppIntents
import Foundation
import JSON

/// Sets a fresh intent's parameters from the JSON of a tap, the way a widget button hands its intent to the
/// system: parameters are given, not resolved.
///
/// Rules, in declaration order of the intent's `@Parameter`s:
/// - a value given is type-checked (the JSON forms of ``ParameterValueConversion``: strings, numbers, booleans,
///   ISO 8601 dates, URLs, enum raw values, entity ids);
/// - an entity id is looked up through the entity's query; an id the query does not return is an error (Apple:
///   "widgets don't resolve parameters for app intents", so there is no fallback to a default);
/// - a parameter not given keeps what `init()` gave it (its `default:`), or nil when optional; a required one
///   with neither is an error;
/// - a JSON member the intent does not declare is an error.
struct IntentParameterBinder {
    /// A configured intent with its canonical parameters.
    struct Bound: Sendable {
        var intent: any AppIntent
        var parameters: [String: JSONValue]
    }

    let descriptor: IntentDescriptor

    func bind(_ raw: [String: JSONValue]) async throws -> Bound {
        let name = descriptor.name
        let intent = descriptor.makeIntent()
        let parameters = intent.parameters()
        let names = parameters.map(\.name)
        // Sorted only when one is unknown, so the error names the first of them.
        if !raw.keys.allSatisfy(names.contains), let unknown = raw.keys.sorted().first(where: { !names.contains($0) }) {
            throw IntentError.unknownParameter(intent: name, parameter: unknown, known: names)
        }
        // Starts as the given members (all declared, as checked above) and changes only where a value's canonical
        // form differs or a default fills in, so a request giving every parameter canonically builds no dictionary.
        var canonical = raw
        for (parameterName, parameter) in parameters {
            guard let json = raw[parameterName], json != .null else {
                if raw[parameterName] == .null {
                    try assign(.null, to: parameter, name: parameterName)
                }
                guard let current = parameter.currentValue else {
                    throw IntentError.missingParameter(intent: name, parameter: parameterName)
                }
                canonical[parameterName] = ParameterValueConversion.json(from: current)
                continue
            }
            let value: IntentParameterValue
            do {
                value = try ParameterValueConversion.value(from: json, for: parameter.kind, parameter: parameterName,
                                                           kind: name)
            } catch let error as EngineError {
                if case .invalidParameter(_, _, let problem) = error {
                    throw IntentError.invalidParameter(intent: name, parameter: parameterName, problem: problem)
                }
                throw error
            }
            if case .entity(let id) = value {
                guard let query = parameter.entityQuery() else {
                    throw IntentError.invalidParameter(intent: name, parameter: parameterName,
                                                       problem: "the entity type has no query")
                }
                guard let entity = try await query.entities(forIdentifiers: [id]).first(where: { $0.id == id }) else {
                    throw IntentError.unknownEntity(intent: name, parameter: parameterName,
                                                    entityType: query.entityTypeName, id: id)
                }
                do {
                    try parameter.assign(entity: entity)
                } catch {
                    throw IntentError.invalidParameter(intent: name, parameter: parameterName, problem: error.description)
                }
                if !Self.isExactly(json, .string(entity.id)) { canonical[parameterName] = .string(entity.id) }
            } else {
                try assign(value, to: parameter, name: parameterName)
                let converted = ParameterValueConversion.json(from: value)
                if !Self.isExactly(json, converted) { canonical[parameterName] = converted }
            }
        }
        return Bound(intent: intent, parameters: canonical)
    }

    /// Whether `given` is `canonical` exactly: compared only for strings (by their bytes: `==` holds for
    /// canonically equivalent texts), booleans and integers; any other value (a double's `==` holds for `-0.0` and
    /// `0.0`) is written in its canonical form.
    private static func isExactly(_ given: JSONValue, _ canonical: JSONValue) -> Bool {
        switch (given, canonical) {
        case (.string(let left), .string(let right)): left.utf8.elementsEqual(right.utf8)
        case (.bool(let left), .bool(let right)): left == right
        case (.int(let left), .int(let right)): left == right
        default: false
        }
    }

    private func assign(_ value: IntentParameterValue, to parameter: any AnyIntentParameter, name: String) throws {
        do {
            try parameter.assign(value)
        } catch {
            throw IntentError.invalidParameter(intent: descriptor.name, parameter: name, problem: error.description)
        }
    }
}
