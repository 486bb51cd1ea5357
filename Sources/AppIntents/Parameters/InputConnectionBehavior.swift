/// Whether Shortcuts connects a parameter to the previous action's output.
///
/// Mirrors [InputConnectionBehavior](https://developer.apple.com/documentation/appintents/inputconnectionbehavior).
public struct InputConnectionBehavior: Sendable, Hashable {
    private enum Behavior: Sendable, Hashable {
        case automatic, connectToPreviousIntentResult, never
    }

    private let behavior: Behavior

    /// The system decides.
    public static let `default` = InputConnectionBehavior(behavior: .automatic)
    /// Connect to the previous action's result.
    public static let connectToPreviousIntentResult = InputConnectionBehavior(behavior: .connectToPreviousIntentResult)
    /// Never connect.
    public static let never = InputConnectionBehavior(behavior: .never)
}
