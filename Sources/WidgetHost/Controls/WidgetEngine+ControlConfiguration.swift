import AppIntents
import HostBridge
import JSON

/// Configurable controls: a placed control's `ControlConfigurationIntent` values, checked when it is placed and bound
/// again whenever its value is read or its intent performed.
///
/// The values are checked as a widget button's intent parameters are (``IntentRunner``, "Parameters"): given, never
/// resolved; a parameter the intent does not declare, a value of the wrong type, an entity id its query does not
/// return, or a required parameter missing is refused as ``ControlError/invalidConfiguration(kind:parameter:problem:)``
/// and nothing is placed. What is stored is canonical (entity ids, enum raw values, ISO 8601 dates).
extension WidgetEngine {
    /// The canonical configuration of a control about to be placed.
    /// - Throws: ``ControlError/invalidConfiguration(kind:parameter:problem:)``.
    func checkedConfiguration(_ raw: [String: JSONValue],
                              for descriptor: ControlKindDescriptor) async throws -> [String: JSONValue] {
        guard let configuration = descriptor.configuration else {
            guard raw.isEmpty else {
                throw ControlError.invalidConfiguration(kind: descriptor.kind, parameter: raw.keys.sorted().first,
                                                        problem: "the kind takes no configuration")
            }
            return [:]
        }
        return try await withUserCode(applyingControlRequests: false) {
            try await Self.bind(raw, configuration, kind: descriptor.kind)
        }.parameters
    }

    /// The placed control's configuration intent, bound with the engine bound (its entity queries read the App
    /// Group); nil for a static control.
    /// - Throws: ``ControlError/invalidConfiguration(kind:parameter:problem:)`` when the stored values no longer bind
    ///   (an entity deleted since).
    func configurationIntent(of control: ControlInstance) async throws -> (any AppIntent)? {
        guard let configuration = controlCatalog.descriptor(kind: control.kind)?.configuration else { return nil }
        let values = control.configuration
        // Inside user code already (`ControlCenter.shared.currentControls()` in a perform): its binding stays, so the
        // entity queries run in the perform's environment (its now, its containers), as the perform's own would.
        if HostContext.current is UserCodeBinding {
            return try await Self.bind(values, configuration, kind: control.kind).intent
        }
        return try await withUserCode(applyingControlRequests: false) {
            try await Self.bind(values, configuration, kind: control.kind)
        }.intent
    }

    /// Binds configuration values, with whatever host is bound now.
    static func bind(_ values: [String: JSONValue], _ configuration: IntentDescriptor,
                     kind: String) async throws -> IntentParameterBinder.Bound {
        do {
            return try await IntentParameterBinder(descriptor: configuration).bind(values)
        } catch let error as IntentError {
            throw ControlError.invalidConfiguration(kind: kind, parameter: error.parameterName,
                                                    problem: error.problem)
        }
    }

    /// The parameters a control's intent is performed with: its configured values for the parameters the intent
    /// declares under the same name, and `extra` (a toggle's `value`).
    nonisolated func controlIntentParameters(_ control: ControlInstance, _ descriptor: ControlKindDescriptor,
                                 adding extra: [String: JSONValue]) -> [String: JSONValue] {
        let declared = Set(descriptor.intentType.parameterDeclarations.map(\.name))
        var parameters = control.configuration.filter { declared.contains($0.key) }
        parameters.merge(extra) { _, new in new }
        return parameters
    }
}

extension IntentError {
    /// The parameter at fault, when the error names one.
    var parameterName: String? {
        switch self {
        case .unknownParameter(_, let parameter, _), .missingParameter(_, let parameter),
             .invalidParameter(_, let parameter, _), .unknownEntity(_, let parameter, _, _):
            parameter
        default:
            nil
        }
    }

    /// What is wrong, without the intent's name (a control's configuration error names the control kind instead).
    var problem: String {
        switch self {
        case .unknownParameter(_, _, let known):
            "not a parameter of the configuration (known: \(known.joined(separator: ", ")))"
        case .missingParameter:
            "required, and it has no default"
        case .invalidParameter(_, _, let problem):
            problem
        case .unknownEntity(_, _, let entityType, let id):
            "no \(entityType) '\(id)'"
        default:
            description
        }
    }
}
