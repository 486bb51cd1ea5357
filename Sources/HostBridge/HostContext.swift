/// The host bound to the current task: where `UserDefaults(suiteName:)`, `WidgetCenter.shared` and
/// `IntentDonationManager.shared` send their calls.
///
/// The binding is a task-local value: child tasks and `Task { }` inherit it, `Task.detached` does not.
/// With no binding, the model layer behaves as documented on each entry point (App Group suites fall
/// back to Foundation's `UserDefaults`; `WidgetCenter` calls are no-ops).
///
/// ```swift
/// try await HostContext.withBinding(engine) {
///     _ = try await intent.perform()   // its UserDefaults and WidgetCenter calls reach `engine`
/// }
/// ```
public enum HostContext {
    /// The host bound to the current task, if any.
    @TaskLocal public static var current: (any HostBinding)?

    /// Runs synchronous work with `binding` bound as the current host.
    ///
    /// - Parameters:
    ///   - binding: The host to bind, or `nil` to run unbound.
    ///   - operation: The work that sees `binding` as ``current``.
    /// - Returns: What `operation` returns.
    public static func withBinding<Result>(
        _ binding: (any HostBinding)?,
        operation: () throws -> Result
    ) rethrows -> Result {
        try $current.withValue(binding, operation: operation)
    }

    /// Runs asynchronous work with `binding` bound as the current host.
    ///
    /// - Parameters:
    ///   - binding: The host to bind, or `nil` to run unbound.
    ///   - operation: The work (and the child tasks it starts) that sees `binding` as ``current``.
    /// - Returns: What `operation` returns.
    public static func withBinding<Result>(
        _ binding: (any HostBinding)?,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $current.withValue(binding, operation: operation, isolation: isolation)
    }
}
