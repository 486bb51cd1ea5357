/// An intent's `perform()` threw: the ``IntentError`` callers are answered with, and the error the intent threw.
///
/// Internal to the runner: ``IntentRunner/perform(_:)`` throws ``intentError`` (what the API and the CLI report),
/// ``IntentRunner/performRethrowing(_:)`` throws ``underlying`` (what a test of the intent expects).
struct IntentPerformFailure: Error {
    /// ``IntentError/performFailed(intent:message:)``, naming the intent and describing the cause.
    let intentError: IntentError
    /// What `perform()` threw.
    let underlying: any Error
}
