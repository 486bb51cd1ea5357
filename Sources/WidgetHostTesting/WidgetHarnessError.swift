import WidgetHost

/// A harness call refused what the engine itself would accept, because in a test it is almost always a mistake.
public enum WidgetHarnessError: Error, Sendable, Equatable, CustomStringConvertible {
    /// ``WidgetHarness/place(_:family:parameters:id:)`` was given an entity id its query does not return. The
    /// engine would place the widget on the parameter's default with these `deleted-entity` diagnostics; a harness
    /// made with `strictParameters: false` does.
    case unresolvedParameter(kind: String, diagnostics: [TimelineDiagnostic])

    /// A plain sentence naming the kind and each unresolved parameter.
    public var description: String {
        switch self {
        case .unresolvedParameter(let kind, let diagnostics):
            "placing '\(kind)': " + diagnostics.map(\.message).joined(separator: " ")
                + " (WidgetHarness(strictParameters: false) places it anyway)"
        }
    }
}
