import ActivityKit
import Foundation

/// An in-memory Live Activity host for tests: records what `ActivityKit` sends it, keeps snapshots, and streams
/// the changes a test makes (a rotated token, a dismissal) the way the engine would.
///
/// It applies no rules beyond "an ended activity takes no updates": the engine's rules have their own tests; this
/// one checks what crosses the boundary.
final class TestActivityHost: ActivityHost, @unchecked Sendable {
    // @unchecked Sendable: every mutable property is only touched while holding `lock`.
    private let lock = NSLock()
    private var _requests: [ActivityRequestDetails] = []
    private var _updates: [(id: String, content: EncodedActivityContent, alert: AlertConfiguration?)] = []
    private var _ends: [(id: String, content: EncodedActivityContent?, policy: ActivityUIDismissalPolicy)] = []
    private var snapshots: [String: ActivitySnapshot] = [:]
    private var order: [String] = []
    private var subscribers: [String: [AsyncStream<ActivityHostEvent>.Continuation]] = [:]
    private var _authorization: ActivityAuthorization

    init(activitiesEnabled: Bool = true) {
        _authorization = ActivityAuthorization(activitiesEnabled: activitiesEnabled, frequentPushesEnabled: false)
    }

    var requests: [ActivityRequestDetails] { lock.withLock { _requests } }
    var updates: [(id: String, content: EncodedActivityContent, alert: AlertConfiguration?)] {
        lock.withLock { _updates }
    }
    var ends: [(id: String, content: EncodedActivityContent?, policy: ActivityUIDismissalPolicy)] {
        lock.withLock { _ends }
    }

    /// The token the host issues to the activity it starts `number`th: distinct per activity, known to tests.
    static func firstToken(ofActivity number: Int) -> Data { Data([0xAB, UInt8(number)]) }

    // MARK: Test controls

    /// How many streams of the activity's events are open, so that a test can wait for an observer to subscribe
    /// before changing the activity.
    func subscriberCount(id: String) -> Int {
        lock.withLock { subscribers[id]?.count ?? 0 }
    }

    /// Gives the activity a new update token, as a rotation does.
    func rotateToken(id: String, to token: Data) {
        let continuations = lock.withLock { () -> [AsyncStream<ActivityHostEvent>.Continuation] in
            snapshots[id]?.pushToken = token
            return subscribers[id] ?? []
        }
        for continuation in continuations { continuation.yield(.pushToken(token)) }
    }

    /// Removes the activity from the Lock Screen: its streams finish.
    func dismiss(id: String) {
        let continuations = lock.withLock { () -> [AsyncStream<ActivityHostEvent>.Continuation] in
            snapshots[id]?.state = .dismissed
            return subscribers.removeValue(forKey: id) ?? []
        }
        for continuation in continuations {
            continuation.yield(.state(.dismissed))
            continuation.finish()
        }
    }

    // MARK: ActivityHost

    func requestActivity(_ request: ActivityRequestDetails) throws -> ActivitySnapshot {
        try lock.withLock {
            guard _authorization.activitiesEnabled else { throw ActivityAuthorizationError.denied }
            _requests.append(request)
            let number = _requests.count
            let token = request.pushType?.kind == .token ? Self.firstToken(ofActivity: number) : nil
            let snapshot = ActivitySnapshot(
                id: "activity-\(number)", attributesType: request.type.name, attributes: request.attributes,
                content: request.content, state: request.start == nil ? .active : .pending, pushToken: token)
            snapshots[snapshot.id] = snapshot
            order.append(snapshot.id)
            return snapshot
        }
    }

    func updateActivity(id: String, content: EncodedActivityContent, alert: AlertConfiguration?,
                        timestamp: Date?) async {
        let continuations = lock.withLock { () -> [AsyncStream<ActivityHostEvent>.Continuation] in
            _updates.append((id, content, alert))
            guard let state = snapshots[id]?.state, state == .active || state == .stale else { return [] }
            snapshots[id]?.content = content
            return subscribers[id] ?? []
        }
        for continuation in continuations { continuation.yield(.content(content)) }
    }

    func endActivity(id: String, content: EncodedActivityContent?, dismissalPolicy: ActivityUIDismissalPolicy,
                     timestamp: Date?) async {
        let continuations = lock.withLock { () -> [AsyncStream<ActivityHostEvent>.Continuation] in
            _ends.append((id, content, dismissalPolicy))
            guard snapshots[id] != nil else { return [] }
            if let content { snapshots[id]?.content = content }
            snapshots[id]?.state = .ended
            return subscribers[id] ?? []
        }
        for continuation in continuations {
            if let content { continuation.yield(.content(content)) }
            continuation.yield(.state(.ended))
        }
    }

    func activitySnapshot(id: String) -> ActivitySnapshot? {
        lock.withLock { snapshots[id] }
    }

    func activitySnapshots(attributesType: String) -> [ActivitySnapshot] {
        lock.withLock {
            order.compactMap { snapshots[$0] }.filter { $0.attributesType == attributesType && $0.state != .dismissed }
        }
    }

    func activityEvents(id: String) -> AsyncStream<ActivityHostEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: ActivityHostEvent.self)
        let token = lock.withLock { () -> Data? in
            subscribers[id, default: []].append(continuation)
            return snapshots[id]?.pushToken
        }
        if let token { continuation.yield(.pushToken(token)) }
        return stream
    }

    func activityStarts(of type: ActivityAttributesType) -> AsyncStream<ActivitySnapshot> {
        // No push-to-start here: nothing else ever starts.
        AsyncStream { $0.finish() }
    }

    func pushToStartToken(of type: ActivityAttributesType) -> Data? {
        Data(type.name.utf8)
    }

    func pushToStartTokenUpdates(of type: ActivityAttributesType) -> AsyncStream<Data> {
        let token = Data(type.name.utf8)
        return AsyncStream { continuation in
            continuation.yield(token)
            continuation.finish()
        }
    }

    var activityAuthorization: ActivityAuthorization {
        lock.withLock { _authorization }
    }

    func activityAuthorizationUpdates() -> AsyncStream<ActivityAuthorization> {
        let current = activityAuthorization
        return AsyncStream { continuation in
            continuation.yield(current)
            continuation.finish()
        }
    }
}
