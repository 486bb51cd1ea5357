import HostBridge
import SharedState

/// A container's standard suite as `UserDefaults(suiteName:)` storage.
struct SuiteDefaults: DefaultsStorage {
    let suite: DefaultsSuite

    func object(forKey key: String) -> Any? { suite.object(forKey: key) }
    func set(_ value: Any, forKey key: String) { suite.set(value, forKey: key) }
    func removeObject(forKey key: String) { suite.removeObject(forKey: key) }
    func dictionaryRepresentation() -> [String: Any] { suite.dictionaryRepresentation() }
}
