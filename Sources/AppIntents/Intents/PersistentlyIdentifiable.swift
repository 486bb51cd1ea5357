/// A type with a stable identifier that survives renaming the type.
///
/// Mirrors [PersistentlyIdentifiable](https://developer.apple.com/documentation/appintents/persistentlyidentifiable).
public protocol PersistentlyIdentifiable {
    /// The type's stable identifier; defaults to the type's name.
    static var persistentIdentifier: String { get }
}

extension PersistentlyIdentifiable {
    /// The type's name, for example `"SelectProjectIntent"`.
    public static var persistentIdentifier: String { String(describing: Self.self) }
}
