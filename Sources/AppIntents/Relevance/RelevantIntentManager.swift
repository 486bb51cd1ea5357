/// Tells the system which widget configurations are relevant, and when.
///
/// Calls go to the host bound to the current task when it conforms to ``RelevantIntentHost``; with no such host
/// they do nothing, as on platforms where the system ignores them.
///
/// Mirrors [RelevantIntentManager](https://developer.apple.com/documentation/appintents/relevantintentmanager).
public final class RelevantIntentManager: Sendable {
    /// The relevant-intent manager.
    public static let shared = RelevantIntentManager()

    private init() {}

    /// Sets the complete list of relevant intents, replacing the previous list; pass `[]` to clear it.
    /// - Throws: What the host throws when it cannot store the list.
    public func updateRelevantIntents(_ relevantIntents: [RelevantIntent]) async throws {
        guard let host = HostContext.current as? any RelevantIntentHost else { return }
        try await host.updateRelevantIntents(relevantIntents)
    }
}
