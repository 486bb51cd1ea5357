/// An asynchronous sequence of what happens to Live Activities: the type behind `Activity.pushTokenUpdates`,
/// `activityStateUpdates`, `contentUpdates`, `activityUpdates`, `pushToStartTokenUpdates` and the authorization
/// streams.
///
/// Each is a view of a stream the host produces, keeping the elements of one sort. Unbound to a host, it finishes
/// at once. Every sequence a property returns is a new subscription that sees changes from then on; iterate it
/// from one task at a time (`for await token in activity.pushTokenUpdates { … }`).
public struct ActivityStream<Element>: AsyncSequence, Sendable {
    private let makeNext: @Sendable () -> (() async -> Element?)

    init<Source: Sendable>(_ source: AsyncStream<Source>?, transform: @escaping @Sendable (Source) -> Element?) {
        guard let source else {
            makeNext = { { nil } }
            return
        }
        makeNext = {
            let cursor = Cursor(source.makeAsyncIterator())
            return {
                while let element = await cursor.next() {
                    if let transformed = transform(element) { return transformed }
                }
                return nil
            }
        }
    }

    /// A view that yields an element only when it differs from the one yielded before (the authorization streams:
    /// a change of one switch is not a change of the other).
    init<Source: Sendable>(_ source: AsyncStream<Source>?, changesOf transform: @escaping @Sendable (Source) -> Element)
        where Element: Equatable & SendableMetatype {
        guard let source else {
            makeNext = { { nil } }
            return
        }
        makeNext = {
            let cursor = Cursor(source.makeAsyncIterator())
            let last = Last<Element>()
            return {
                while let element = await cursor.next() {
                    let value = transform(element)
                    if last.replace(with: value) { return value }
                }
                return nil
            }
        }
    }

    /// The iterator over an ``ActivityStream``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let nextElement: () async -> Element?

        /// The next element, or `nil` once the stream has finished.
        public mutating func next() async -> Element? {
            await nextElement()
        }
    }

    /// Starts iterating: a new subscription.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(nextElement: makeNext())
    }
}

/// The element one iteration yielded last.
private final class Last<Value: Equatable> {
    private var value: Value?

    /// Keeps `new` and answers whether it differs from the value kept before.
    func replace(with new: Value) -> Bool {
        defer { value = new }
        return value != new
    }
}

/// One iteration of a host's stream, shared by the closure that advances it.
private final class Cursor<Source: Sendable> {
    private var iterator: AsyncStream<Source>.AsyncIterator

    init(_ iterator: AsyncStream<Source>.AsyncIterator) {
        self.iterator = iterator
    }

    func next() async -> Source? {
        await iterator.next()
    }
}
