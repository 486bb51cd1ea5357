import Foundation

/// An error that a non-throwing, `UserDefaults`-shaped ``DefaultsSuite`` method could not throw.
///
/// `UserDefaults.set(_:forKey:)` cannot fail in its signature, but a disk can be full and a
/// value may not be a property list. Rather than lose such errors, the suite hands each one to
/// the container's failure handler (by default ``logToStandardError``) and carries on as
/// Foundation would: a failed write leaves the previous value in place, a failed read answers
/// as for a missing key. Code that must know uses the throwing variants
/// (``DefaultsSuite/write(_:forKey:)``, ``DefaultsSuite/readValue(forKey:)``, the `in:` forms).
public struct DefaultsFailure: Error, CustomStringConvertible, Sendable {
    /// What the suite was doing.
    public enum Operation: String, Sendable {
        case read, write, remove, list
    }

    /// The suite name.
    public let suite: String
    /// The key involved (empty for ``Operation/list``).
    public let key: String
    /// What the suite was doing.
    public let operation: Operation
    /// The cause: ``NotAPropertyListError`` or ``SQLiteError``.
    public let underlying: any Error

    public var description: String {
        "defaults \(operation.rawValue) of key \(key.debugDescription) in suite \(suite.debugDescription) failed: \(underlying)"
    }

    /// The default handler: one line on standard error per failure.
    public static let logToStandardError: @Sendable (DefaultsFailure) -> Void = { failure in
        FileHandle.standardError.write(Data("SharedState: \(failure)\n".utf8))
    }
}
