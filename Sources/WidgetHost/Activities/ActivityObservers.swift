import ActivityKit
import Foundation
import Synchronization

/// The streams app code is iterating (`pushTokenUpdates`, `activityStateUpdates`, `activityUpdates`, …), fed with
/// the notices of each committed change.
///
/// Continuations are yielded to and finished outside the lock: finishing one runs its termination handler, which
/// takes the lock to unsubscribe.
final class ActivityObservers: Sendable {
    private enum Subscriber {
        case activity(String, AsyncStream<ActivityHostEvent>.Continuation)
        case starts(String, AsyncStream<ActivitySnapshot>.Continuation)
        case pushToStartTokens(String, AsyncStream<Data>.Continuation)
        case authorization(AsyncStream<ActivityAuthorization>.Continuation)
    }

    private let subscribers = Mutex<[UUID: Subscriber]>([:])

    func activityEvents(id: String, current token: Data?) -> AsyncStream<ActivityHostEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: ActivityHostEvent.self)
        if let token { continuation.yield(.pushToken(token)) }
        add(.activity(id, continuation), continuation)
        return stream
    }

    func starts(of type: String) -> AsyncStream<ActivitySnapshot> {
        let (stream, continuation) = AsyncStream.makeStream(of: ActivitySnapshot.self)
        add(.starts(type, continuation), continuation)
        return stream
    }

    func pushToStartTokens(of type: String, current token: Data?) -> AsyncStream<Data> {
        let (stream, continuation) = AsyncStream.makeStream(of: Data.self)
        if let token { continuation.yield(token) }
        add(.pushToStartTokens(type, continuation), continuation)
        return stream
    }

    func authorization() -> AsyncStream<ActivityAuthorization> {
        let (stream, continuation) = AsyncStream.makeStream(of: ActivityAuthorization.self)
        add(.authorization(continuation), continuation)
        return stream
    }

    /// Feeds the notices of one committed change to the streams they concern, in order.
    func deliver(_ notices: [ActivityNotice]) {
        guard !notices.isEmpty else { return }
        let current = subscribers.withLock { Array($0.values) }
        for notice in notices {
            for subscriber in current {
                switch (notice, subscriber) {
                case (.activity(let id, let event), .activity(let subscribed, let continuation)) where id == subscribed:
                    continuation.yield(event)
                case (.dismissed(let id), .activity(let subscribed, let continuation)) where id == subscribed:
                    continuation.finish()
                case (.started(let type, let snapshot), .starts(let subscribed, let continuation)) where type == subscribed:
                    continuation.yield(snapshot)
                case (.pushToStartToken(let type, let token), .pushToStartTokens(let subscribed, let continuation))
                    where type == subscribed:
                    continuation.yield(token)
                case (.authorization(let value), .authorization(let continuation)):
                    continuation.yield(value)
                default:
                    break
                }
            }
        }
    }

    private func add<Element>(_ subscriber: Subscriber, _ continuation: AsyncStream<Element>.Continuation) {
        let key = UUID()
        subscribers.withLock { $0[key] = subscriber }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { _ = $0.removeValue(forKey: key) }
        }
    }
}
