import Foundation
import Synchronization

/// An intent's parameter, written `@Parameter(title: "Project") var project: ProjectEntity?`.
///
/// A non-optional parameter is required: give it a `default:`, or have the host resolve it (from
/// the query's `defaultResult()`) before it is read. Reading a non-optional parameter that has no
/// value stops the program, as on iOS. An optional parameter without a value reads as `nil`.
///
/// The wrapper is a `final class`, as Apple's is: copies of an intent share parameter values, so
/// hosts create a fresh intent for every resolution and run.
///
/// Mirrors [IntentParameter](https://developer.apple.com/documentation/appintents/intentparameter).
@propertyWrapper
public final class IntentParameter<Value: _IntentValue>: Sendable {
    /// Guards ``box`` (no `NSLock` object per parameter, and a read that takes no system call when
    /// uncontended): a provider may read its parameters many times per run.
    @usableFromInline let lock = Mutex(())
    /// The value in a box, `nil` when there is none. Boxed, and not held as `Mutex<Value?>`: the class's own code is
    /// generic (the conformances hosts call, its `deinit`), and there every `Value?` looked up the generic metadata
    /// of `Optional<Value>` at run time; a box is a reference whatever `Value` is, so replacing a value and
    /// destroying the parameter (once per perform) look nothing up. Visible to inlined code so that
    /// ``wrappedValue``'s getter is specialized in the reading module for the concrete `Value`.
    @usableFromInline nonisolated(unsafe) var box: ParameterValueBox<Value>?

    /// The parameter's name as shown to people.
    public let title: LocalizedStringResource
    /// A longer explanation of the parameter, if any.
    public let descriptionResource: LocalizedStringResource?
    /// What the system asks when it needs a value, if given.
    public let requestValueDialog: IntentDialog?
    /// How Shortcuts connects the parameter to earlier actions.
    public let inputConnectionBehavior: InputConnectionBehavior
    /// The value given as `default:`, if any.
    public var defaultUnwrappedValue: Value.UnwrappedType? { defaultBox?.value }
    /// ``defaultUnwrappedValue`` in a box, for the reason ``box`` is one.
    @usableFromInline let defaultBox: ParameterValueBox<Value.UnwrappedType>?
    @usableFromInline let options: ParameterOptions?
    /// Boxes a value. Made by the initializers, which are inlined into the intent's `init()` and so specialized for
    /// the concrete `Value`: a host assigning a value through ``AnyIntentParameter`` (generic code) boxes it without
    /// looking up the box's generic metadata at run time, once per parameter of every perform.
    @usableFromInline let makeBox: @Sendable (Value) -> ParameterValueBox<Value>
    /// Decodes a host's value into a box, or nil when it is not a `Value`; made specialized for the reason
    /// ``makeBox`` is (decoding in generic code looked up the metadata of `Optional<Value>`).
    @usableFromInline let decodeBox: @Sendable (IntentParameterValue) -> ParameterValueBox<Value>?

    /// Creates a parameter.
    ///
    /// - Parameters:
    ///   - title: The parameter's name as shown to people.
    ///   - description: A longer explanation.
    ///   - defaultValue: The value the parameter starts with (the unwrapped type for optionals).
    ///   - requestValueDialog: What the system asks when it needs a value.
    ///   - inputConnectionBehavior: How Shortcuts connects the parameter to earlier actions.
    ///
    /// Inlinable, so that an intent's `init()` (run for every perform) makes its parameters specialized for their
    /// concrete values: unspecialized, each one looked up the generic metadata of its storage at run time.
    @inlinable public init(
        title: LocalizedStringResource,
        description: LocalizedStringResource? = nil,
        default defaultValue: Value.UnwrappedType? = nil,
        requestValueDialog: IntentDialog? = nil,
        inputConnectionBehavior: InputConnectionBehavior = .default
    ) {
        self.title = title
        self.descriptionResource = description
        self.requestValueDialog = requestValueDialog
        self.inputConnectionBehavior = inputConnectionBehavior
        self.defaultBox = defaultValue.map(ParameterValueBox.init)
        self.options = nil
        self.box = defaultValue.map { ParameterValueBox(Value._wrap($0)) }
        self.makeBox = { ParameterValueBox($0) }
        self.decodeBox = { Value._decode($0).map(ParameterValueBox.init) }
    }

    /// Creates a parameter whose choices (and possibly default) come from a provider.
    ///
    /// For an entity parameter the provider may be an `EntityQuery`, which then replaces the
    /// entity's `defaultQuery` for this parameter.
    ///
    /// - Parameters:
    ///   - title: The parameter's name as shown to people.
    ///   - description: A longer explanation.
    ///   - defaultValue: The value the parameter starts with (the unwrapped type for optionals).
    ///   - requestValueDialog: What the system asks when it needs a value.
    ///   - inputConnectionBehavior: How Shortcuts connects the parameter to earlier actions.
    ///   - optionsProvider: Supplies the choices, and the default when `defaultValue` is `nil`.
    public init<Provider: DynamicOptionsProvider>(
        title: LocalizedStringResource,
        description: LocalizedStringResource? = nil,
        default defaultValue: Value.UnwrappedType? = nil,
        requestValueDialog: IntentDialog? = nil,
        inputConnectionBehavior: InputConnectionBehavior = .default,
        optionsProvider: Provider
    ) where Provider.Result.Element == Value.UnwrappedType, Provider.DefaultValue == Value.UnwrappedType {
        self.title = title
        self.descriptionResource = description
        self.requestValueDialog = requestValueDialog
        self.inputConnectionBehavior = inputConnectionBehavior
        self.defaultBox = defaultValue.map(ParameterValueBox.init)
        self.options = ParameterOptions(provider: optionsProvider)
        self.box = defaultValue.map { ParameterValueBox(Value._wrap($0)) }
        self.makeBox = { ParameterValueBox($0) }
        self.decodeBox = { Value._decode($0).map(ParameterValueBox.init) }
    }

    /// The parameter's value.
    @inlinable public var wrappedValue: Value {
        get {
            if let box = lock.withLock({ _ in box }) { return box.value }
            if let empty = Value._emptyValue { return empty }
            fatalError(
                "@Parameter \"\(title.defaultValue)\" (\(Value.self)) was read before it had a value: "
                    + "give it a default:, make it optional, or set it before perform()"
            )
        }
        set {
            let box = ParameterValueBox(newValue)
            lock.withLock { _ in self.box = box }
        }
    }

    /// The parameter itself, written `$name`, for `throw $name.needsValueError()`.
    public var projectedValue: IntentParameter<Value> { self }

    /// The stored value, or `nil` when none was set (optionals without a value included).
    var storedValue: Value? {
        lock.withLock { _ in box }?.value
    }

    /// Replaces the stored value; `nil` leaves the parameter without a value.
    func replaceStoredValue(_ box: ParameterValueBox<Value>?) {
        lock.withLock { _ in self.box = box }
    }
}

/// A parameter's value, held by reference (see ``IntentParameter``'s storage).
@usableFromInline final class ParameterValueBox<Boxed: Sendable>: Sendable {
    @usableFromInline let value: Boxed

    @usableFromInline init(_ value: Boxed) {
        self.value = value
    }
}
