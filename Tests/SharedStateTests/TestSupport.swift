import Foundation
import Testing
@testable import SharedState

/// The store configurations every store behaviour is tested on.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inMemory
    case onDisk

    var testDescription: String { rawValue }
}

/// Runs `body` with a fresh directory under the system temporary directory, removed afterwards.
/// Swift Testing runs tests in parallel, so every test gets its own.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("SharedStateTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}

/// Runs `body` with a fresh store of the given kind.
func withStore<T>(_ kind: StoreKind, readerCount: Int = 4, _ body: (DatabaseStore) throws -> T) throws -> T {
    switch kind {
    case .inMemory:
        return try body(DatabaseStore.inMemory())
    case .onDisk:
        return try withTemporaryDirectory { directory in
            let store = try DatabaseStore(path: directory.appendingPathComponent("test.sqlite").path,
                                          configuration: .init(readerCount: readerCount))
            return try body(store)
        }
    }
}

/// Runs `body` with a fresh container of the given kind.
func withContainer<T>(_ kind: StoreKind, identifier: String = "group.com.example.shared",
                      onFailure: @escaping @Sendable (DefaultsFailure) -> Void = DefaultsFailure.logToStandardError,
                      _ body: (AppGroupContainer) throws -> T) throws -> T {
    switch kind {
    case .inMemory:
        return try body(AppGroupContainer.inMemory(identifier: identifier, onFailure: onFailure))
    case .onDisk:
        return try withTemporaryDirectory { directory in
            try body(AppGroupContainer(identifier: identifier, dataDirectory: directory, onFailure: onFailure))
        }
    }
}

/// Collects failures reported by non-throwing suite methods.
final class FailureLog: Sendable {
    private let failures = LockedValue<[DefaultsFailure]>([])

    var all: [DefaultsFailure] { failures.value }

    var handler: @Sendable (DefaultsFailure) -> Void {
        { [failures] failure in failures.mutate { $0.append(failure) } }
    }
}

/// A value behind a lock, for test bookkeeping shared between threads.
///
/// `@unchecked Sendable` is safe because `stored` is only touched while holding `lock`.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func mutate<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&stored) } }
}

/// A test error thrown on purpose to roll back a transaction.
struct Rollback: Error {}
