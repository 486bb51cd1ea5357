import HTTPServer
import JSON
import WidgetHost

extension APIError.Code {
    /// 404 (422 when a request body names it): no control kind with this kind string (`detail.kind`,
    /// `detail.known`).
    public static let unknownControlKind: Self = "unknown_control_kind"
    /// 404: no placed control with this id (`detail.control`).
    public static let unknownControl: Self = "unknown_control"
    /// 409: a control with this id is already placed (`detail.control`).
    public static let duplicateControl: Self = "duplicate_control"
    /// 409: a toggle was pressed or a button set to a value (`detail.kind`, `detail.style`).
    public static let wrongControlStyle: Self = "wrong_control_style"
    /// 422: the kind's configuration intent does not take this configuration (`detail.kind`, `detail.parameter`,
    /// `detail.problem`).
    public static let invalidConfiguration: Self = "invalid_configuration"
}

extension APIError {
    /// The API's answer to a refused control request; every case changed nothing.
    ///
    /// | control error | status | code |
    /// |---|---|---|
    /// | `unknownKind` | 422 | `unknown_control_kind` (the kind is named in the body) |
    /// | `unknownControl` | 404 | `unknown_control` |
    /// | `duplicateControl` | 409 | `duplicate_control` |
    /// | `wrongStyle` | 409 | `wrong_control_style` |
    /// | `invalidConfiguration` | 422 | `invalid_configuration` |
    init(_ error: ControlError, knownKinds: [String]) {
        let message = error.description
        switch error {
        case .unknownKind(let kind):
            self.init(.unknownControlKind, status: .unprocessableContent, message: message,
                      detail: ["kind": .string(kind), "known": .array(knownKinds.map(JSONValue.string))])
        case .unknownControl(let id):
            self.init(.unknownControl, status: .notFound, message: message, detail: ["control": .string(id)])
        case .duplicateControl(let id):
            self.init(.duplicateControl, status: .conflict, message: message, detail: ["control": .string(id)])
        case .wrongStyle(let kind, let style):
            self.init(.wrongControlStyle, status: .conflict, message: message,
                      detail: ["kind": .string(kind), "style": .string(style.rawValue)])
        case .invalidConfiguration(let kind, let parameter, let problem):
            self.init(.invalidConfiguration, status: .unprocessableContent, message: message, detail: [
                "kind": .string(kind), "parameter": parameter.map(JSONValue.string) ?? .null,
                "problem": .string(problem),
            ])
        }
    }
}

/// Runs control work, turning ``ControlError``s and the intent runner's and engine's errors into ``APIError``s.
func mappingControlErrors<T: Sendable>(knownKinds: [String], _ body: () async throws -> T) async throws -> T {
    do {
        return try await mappingEngineErrors(body)
    } catch let error as ControlError {
        throw APIError(error, knownKinds: knownKinds)
    }
}
