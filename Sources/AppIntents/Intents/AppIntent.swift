/// An action people can run from a widget button, Shortcuts, Siri or Spotlight.
///
/// Lifecycle: the system creates the intent with `init()`, sets its parameters (in declaration
/// order) and calls ``perform()``, keeping the instance for that one invocation only. Hosts must do
/// the same: `@Parameter` wrappers are classes, so copies of an intent share their values; create a
/// fresh `Intent()` for every resolution and every run.
///
/// Deliberate difference from Apple: ``description`` is a non-optional `IntentDescription`. iOS code
/// writes `static var description = IntentDescription("…")`, whose inferred non-optional type would
/// not satisfy Apple's `IntentDescription?` requirement, so the host could never read it. An empty
/// description (the default) means "none". Code that declares `IntentDescription?` explicitly still
/// compiles, but its value is not seen by hosts.
///
/// Mirrors [AppIntent](https://developer.apple.com/documentation/appintents/appintent).
public protocol AppIntent: PersistentlyIdentifiable, Sendable {
    /// The type ``perform()`` returns, for example `some IntentResult`.
    associatedtype PerformResult: IntentResult

    /// Creates an intent whose parameters hold their defaults.
    init()

    /// The intent's name as shown to people.
    static var title: LocalizedStringResource { get }

    /// What the intent does; empty by default.
    static var description: IntentDescription { get }

    /// Whether running the intent brings the app to the foreground; `false` by default.
    static var openAppWhenRun: Bool { get }

    /// Whether the intent is offered in Shortcuts and Spotlight; `true` by default.
    static var isDiscoverable: Bool { get }

    /// Whether the intent may run on a locked device; `.alwaysAllowed` by default.
    static var authenticationPolicy: IntentAuthenticationPolicy { get }

    /// Does the intent's work.
    ///
    /// - Returns: The result, built with `.result()`, `.result(value:)` or `.result(dialog:)`.
    /// - Throws: Any error; `throw $parameter.needsValueError()` asks for a missing value.
    func perform() async throws -> PerformResult
}

extension AppIntent {
    /// An empty description: none.
    public static var description: IntentDescription { IntentDescription("") }

    /// `false`: the intent runs without opening the app.
    public static var openAppWhenRun: Bool { false }

    /// `true`: the intent is offered in Shortcuts and Spotlight.
    public static var isDiscoverable: Bool { true }

    /// `.alwaysAllowed`.
    public static var authenticationPolicy: IntentAuthenticationPolicy { .alwaysAllowed }

    /// The property wrapper for an intent's parameters, spelled `@Parameter`.
    ///
    /// Mirrors [AppIntent.Parameter](https://developer.apple.com/documentation/appintents/appintent/parameter).
    public typealias Parameter<Value: _IntentValue> = IntentParameter<Value>
}
