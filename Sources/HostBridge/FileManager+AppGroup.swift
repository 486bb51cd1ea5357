import Foundation

#if !canImport(Darwin)
extension FileManager {
    /// The directory of an App Group container, as on iOS: the bound host's directory for `groupIdentifier`
    /// (``HostContext/current``), created if needed.
    ///
    /// Linux Foundation has no App Groups, so iOS code that finds its shared files this way would not compile here;
    /// this is the same call, answered by the engine running the code. As on iOS for a group the app is not
    /// entitled to, it returns `nil` when no host is bound, or when the host does not know the group (or keeps it in
    /// memory).
    ///
    /// Files the code opens itself in this directory are its own: they are not part of a perform's transaction,
    /// not rolled back when `perform()` throws or on a dry run, and not in the perform's diff. What is inside them
    /// is `UserDefaults(suiteName:)` and the container's SQLite store reached through `IntentTransaction`
    /// (`Docs/testing-intents.md`).
    ///
    /// - Parameter groupIdentifier: The App Group identifier, for example `"group.com.example.tasks"`.
    /// - Returns: The container's directory, or `nil`.
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        HostContext.current?.containerURL(forGroup: groupIdentifier)
    }
}
#endif
