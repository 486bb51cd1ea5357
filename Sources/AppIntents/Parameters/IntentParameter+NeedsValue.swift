extension IntentParameter {
    /// An error that asks for a value for this parameter; `throw` it from `perform()`.
    ///
    /// - Parameter dialog: What to ask; defaults to the parameter's `requestValueDialog`.
    /// - Returns: An error naming this parameter.
    ///
    /// Mirrors [needsValueError(_:)](https://developer.apple.com/documentation/appintents/intentparameter/needsvalueerror(_:)).
    public func needsValueError(_ dialog: IntentDialog? = nil) -> ParameterNeedsValueError {
        ParameterNeedsValueError(parameterTitle: title.defaultValue, dialog: dialog ?? requestValueDialog)
    }
}

/// Thrown by an intent that needs a value for a parameter before it can finish.
public struct ParameterNeedsValueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The title of the parameter that needs a value.
    public var parameterTitle: String
    /// What to ask, if given.
    public var dialog: IntentDialog?

    /// Creates an error.
    public init(parameterTitle: String, dialog: IntentDialog?) {
        self.parameterTitle = parameterTitle
        self.dialog = dialog
    }

    /// A sentence naming the parameter and the question.
    public var description: String {
        let question = dialog.map { ": \($0.full.defaultValue)" } ?? ""
        return "parameter \"\(parameterTitle)\" needs a value\(question)"
    }
}
