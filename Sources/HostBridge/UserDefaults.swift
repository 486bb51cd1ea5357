import Foundation

/// WidgetHost's `UserDefaults`: App Group suites that reach the engine running the code.
///
/// iOS widget and intent code shares state with its app through
/// `UserDefaults(suiteName: "group.…")`. This class has the same name and initializer, but its
/// ``init(suiteName:)`` takes a non-optional `String`. That overload wins over Foundation's
/// `init?(suiteName: String?)` even in files that also `import Foundation`, so unchanged iOS code
/// gets this class, whose reads and writes go to the suite of the host bound to the current task
/// (``HostContext/current``). For suites no host manages, it forwards to
/// `Foundation.UserDefaults(suiteName:)`.
///
/// The storage is looked up on every call, not at creation: a `UserDefaults` kept in a `static let`
/// serves whichever engine runs the code at the time. The order is: the current host's suite; else
/// the suite of the host that was bound when this instance was created; else Foundation's suite.
///
/// Source-compatibility notes:
/// - An explicit type annotation (`let defaults: UserDefaults`) or an `extension UserDefaults` is
///   ambiguous in files that import both Foundation and a WidgetHost model module. Let the type be
///   inferred (`let defaults = UserDefaults(suiteName: "group.x")`), or write
///   `HostBridge.UserDefaults` / `Foundation.UserDefaults`.
/// - `UserDefaults.standard` and `UserDefaults(suiteName:)` with an optional `String` resolve to
///   Foundation's class: this class deliberately declares no `standard`.
/// - URLs are stored as their `absoluteString` (Foundation archives them as `Data`).
///
/// Mirrors [UserDefaults](https://developer.apple.com/documentation/foundation/userdefaults).
public final class UserDefaults: @unchecked Sendable {
    // @unchecked Sendable: the stored properties below are immutable except `registered`, which is
    // only read or written while holding `lock`. `DefaultsStorage` is Sendable and Foundation's
    // UserDefaults is documented thread-safe.
    private let lock = NSLock()
    private var registered: [String: Any] = [:]
    private let boundAtCreation: (any DefaultsStorage)?
    private let foundationSuite: Foundation.UserDefaults?

    /// The App Group suite this instance reads and writes, for example `"group.com.example.tasks"`.
    public let suiteName: String

    /// Opens the App Group suite `suiteName`.
    ///
    /// - Parameter suiteName: The suite's name, usually an App Group identifier.
    /// - Returns: `nil` only when no host manages the suite and Foundation refuses the name.
    public init?(suiteName: String) {
        self.suiteName = suiteName
        let bound = HostContext.current?.defaults(suiteName: suiteName)
        boundAtCreation = bound
        if bound == nil {
            guard let suite = Foundation.UserDefaults(suiteName: suiteName) else { return nil }
            foundationSuite = suite
        } else {
            foundationSuite = nil
        }
    }

    /// Creates a suite over the given storage, whatever host is bound; for hosts and tests.
    ///
    /// - Parameters:
    ///   - storage: Where the values live.
    ///   - suiteName: The name reported by ``suiteName``.
    public init(storage: any DefaultsStorage, suiteName: String) {
        self.suiteName = suiteName
        boundAtCreation = storage
        foundationSuite = nil
    }

    /// Whether calls currently reach a host's storage rather than Foundation's `UserDefaults`.
    public var isHostManaged: Bool {
        if case .host = backend { return true }
        return false
    }

    enum Backend {
        case host(any DefaultsStorage)
        case foundation(Foundation.UserDefaults)
    }

    var backend: Backend {
        if let storage = HostContext.current?.defaults(suiteName: suiteName) ?? boundAtCreation {
            return .host(storage)
        }
        if let foundationSuite {
            return .foundation(foundationSuite)
        }
        // Created over a host's storage, so `boundAtCreation` is set: unreachable.
        preconditionFailure("UserDefaults(suiteName: \(suiteName)) has neither host nor Foundation storage")
    }

    /// Returns the value for `key`: the stored value, else the registered default, else `nil`.
    ///
    /// Mirrors [object(forKey:)](https://developer.apple.com/documentation/foundation/userdefaults/object(forkey:)).
    public func object(forKey defaultName: String) -> Any? {
        let stored: Any?
        switch backend {
        case .host(let storage): stored = storage.object(forKey: defaultName)
        case .foundation(let suite): stored = suite.object(forKey: defaultName)
        }
        if let stored { return stored }
        return lock.withLock { registered[defaultName] }
    }

    /// Stores `value` for `key`; `nil` removes the value.
    ///
    /// Like Foundation, a value that is not a property list (`String`, numbers, `Bool`, `Date`,
    /// `Data`, and arrays and string-keyed dictionaries of them) stops the program.
    ///
    /// Mirrors [set(_:forKey:)](https://developer.apple.com/documentation/foundation/userdefaults/set(_:forkey:)-7dvd).
    public func set(_ value: Any?, forKey defaultName: String) {
        guard let value else {
            removeObject(forKey: defaultName)
            return
        }
        guard let normalized = PropertyListNormalization.normalize(value) else {
            preconditionFailure(
                "UserDefaults(suiteName: \(suiteName)): attempt to store a non-property-list value of type \(type(of: value)) for key \(defaultName)"
            )
        }
        switch backend {
        case .host(let storage): storage.set(normalized, forKey: defaultName)
        case .foundation(let suite): suite.set(normalized, forKey: defaultName)
        }
    }

    /// Removes the value stored for `key`.
    ///
    /// Mirrors [removeObject(forKey:)](https://developer.apple.com/documentation/foundation/userdefaults/removeobject(forkey:)).
    public func removeObject(forKey defaultName: String) {
        switch backend {
        case .host(let storage): storage.removeObject(forKey: defaultName)
        case .foundation(let suite): suite.removeObject(forKey: defaultName)
        }
    }

    /// Returns registered defaults overlaid with every stored key and value.
    ///
    /// Mirrors [dictionaryRepresentation()](https://developer.apple.com/documentation/foundation/userdefaults/dictionaryrepresentation()).
    public func dictionaryRepresentation() -> [String: Any] {
        var result = lock.withLock { registered }
        let stored: [String: Any]
        switch backend {
        case .host(let storage): stored = storage.dictionaryRepresentation()
        case .foundation(let suite): stored = suite.dictionaryRepresentation()
        }
        result.merge(stored) { _, new in new }
        return result
    }

    /// Adds fallback values returned when a key has no stored value; they are never stored.
    ///
    /// Registrations belong to this instance, as Foundation's belong to the process.
    ///
    /// Mirrors [register(defaults:)](https://developer.apple.com/documentation/foundation/userdefaults/register(defaults:)).
    public func register(defaults registrationDictionary: [String: Any]) {
        var normalized: [String: Any] = [:]
        for (key, value) in registrationDictionary {
            guard let plist = PropertyListNormalization.normalize(value) else {
                preconditionFailure("UserDefaults.register(defaults:): non-property-list value for key \(key)")
            }
            normalized[key] = plist
        }
        lock.withLock { registered.merge(normalized) { _, new in new } }
    }

    /// Makes pending writes durable; returns whether that succeeded.
    ///
    /// Mirrors [synchronize()](https://developer.apple.com/documentation/foundation/userdefaults/synchronize()),
    /// which Apple documents as unnecessary.
    @discardableResult
    public func synchronize() -> Bool {
        switch backend {
        case .host(let storage): return storage.synchronize()
        case .foundation(let suite): return suite.synchronize()
        }
    }
}
