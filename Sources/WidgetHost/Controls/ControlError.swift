/// Why a control request was refused; nothing was changed.
public enum ControlError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No control kind is registered under this kind string.
    case unknownKind(String)
    /// No placed control has this identifier.
    case unknownControl(String)
    /// A placed control already has this identifier.
    case duplicateControl(String)
    /// The control is a button: it is pressed, not set to a value (or a toggle, which is set, not pressed).
    case wrongStyle(kind: String, style: ControlKindDescriptor.Style)
    /// A configuration the kind's `ControlConfigurationIntent` does not accept: a parameter it does not declare, a
    /// value of the wrong type, an entity its query does not return, a required parameter missing, or any
    /// configuration for a kind that takes none. `parameter` names the parameter when one is at fault.
    case invalidConfiguration(kind: String, parameter: String?, problem: String)

    /// Names the control and what is wrong.
    public var description: String {
        switch self {
        case .unknownKind(let kind): "no control kind '\(kind)' is registered"
        case .unknownControl(let id): "no control '\(id)' is placed"
        case .duplicateControl(let id): "a control '\(id)' is already placed"
        case .wrongStyle(let kind, let style):
            style == .button ? "control kind '\(kind)' is a button: press it" : "control kind '\(kind)' is a toggle: set its value"
        case .invalidConfiguration(let kind, let parameter?, let problem):
            "control kind '\(kind)': configuration parameter '\(parameter)': \(problem)"
        case .invalidConfiguration(let kind, nil, let problem):
            "control kind '\(kind)': \(problem)"
        }
    }
}
