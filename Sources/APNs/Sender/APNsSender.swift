import Foundation
import Push
import Synchronization

/// Drains the push outbox to APNs: claims due pushes under a lease, sends them over ``HTTP2Client`` with the
/// provider token, and records each answer as ``APNsAnswer`` decides (delivered, failed with APNs's reason, retried
/// later, or the token invalidated).
///
/// Durability: a push is acknowledged once it is in the outbox (the planner's transaction, or
/// ``PushOutbox/enqueue(_:)``). The sender never deletes one; it leases what it sends (``Configuration/lease``) and
/// records answers one transaction per batch. A crash between sending and recording leaves the push pending and
/// leased: the lease runs out, or the next sender (``Configuration/releasesLeasesOnStart``) takes it back at once,
/// and sends it again with the same `apns-id`. So every push is sent at least once, and only pushes in flight at a
/// crash can be sent twice. The request timeout is shorter than the lease, so a push is never leased twice at once.
///
/// Channel (broadcast) pushes go to a different APNs endpoint, which this sender does not speak: they fail with
/// `UnsupportedChannelPush` rather than wait forever.
///
/// One thread of its own claims, submits and records; the HTTP/2 client's thread does the network.
public final class APNsSender: Sendable {
    /// How the sender reaches APNs and paces itself.
    public struct Configuration: Sendable {
        /// The HTTP/2 endpoint, connections and CA file.
        public var client: HTTP2Client.Configuration
        /// The most requests in flight at once (across connections).
        public var window: Int
        /// How long a claimed push stays reserved to this sender.
        public var lease: Duration
        /// Retries of 429, 5xx and unanswered requests.
        public var retry: RetryPolicy
        /// How often the outbox is looked at when nothing happens (``APNsSender/wake()`` shortens it).
        public var idlePoll: Duration
        /// Whether, on ``APNsSender/start()``, leases left by a previous sender end at once: right when this is the
        /// only sender on the database (the daemon), wrong when several share it.
        public var releasesLeasesOnStart: Bool

        /// Creates a configuration; the window defaults to the client's connections times its streams, at most
        /// 2,000.
        public init(client: HTTP2Client.Configuration, window: Int? = nil, lease: Duration = .seconds(60),
                    retry: RetryPolicy = .standard, idlePoll: Duration = .milliseconds(100),
                    releasesLeasesOnStart: Bool = true) {
            self.client = client
            self.window = window ?? min(2000, client.connections * client.streamsPerConnection)
            self.lease = lease
            self.retry = retry
            self.idlePoll = idlePoll
            self.releasesLeasesOnStart = releasesLeasesOnStart
        }
    }

    /// The configuration.
    public let configuration: Configuration
    /// The counters `/metrics` shows.
    public let metrics: APNsMetrics
    let store: any PushDeliveryQueue
    let providerToken: ProviderToken
    let dueClock: @Sendable () -> Date
    let inbox = Inbox()
    let control = Mutex(Control())
    private let client: Mutex<HTTP2Client?> = Mutex(nil)

    /// Where the HTTP/2 client's thread leaves answers for the sender's thread, and the signal that wakes it.
    final class Inbox: Sendable {
        let answers = Mutex<[HTTP2Completion]>([])
        let signal = DispatchSemaphore(value: 0)
    }

    struct Control {
        var started = false
        var stopping = false
        var stopped: DispatchSemaphore?
        var grace: Duration = .zero
        var wakeRequested = false
        var lastError: String?
    }

    /// Creates a sender; nothing is sent before ``start()``.
    /// - Parameters:
    ///   - store: The outbox drained: a ``PushStore`` (SQLite, whose registry loses dead tokens) or a
    ///     ``PostgresPushOutbox`` several senders share (set ``Configuration/releasesLeasesOnStart`` false there).
    ///   - providerToken: The team's provider token.
    ///   - dueClock: The clock `due_at` is compared with (the planner's, so virtual time applies).
    /// - Throws: ``HTTP2ClientError`` for a bad client configuration, or a window outside 1...10000.
    public init(store: any PushDeliveryQueue, providerToken: ProviderToken, configuration: Configuration,
                metrics: APNsMetrics = APNsMetrics(), dueClock: @escaping @Sendable () -> Date = Date.init) throws {
        try configuration.client.validate()
        guard (1...10_000).contains(configuration.window) else {
            throw HTTP2ClientError.streamsOutOfRange(configuration.window)
        }
        self.store = store
        self.providerToken = providerToken
        self.configuration = configuration
        self.metrics = metrics
        self.dueClock = dueClock
    }

    /// Starts sending: takes back leases if configured, connects, and drains the outbox until ``stop()``.
    /// - Throws: What releasing the leases or opening the client threw.
    public func start() throws {
        guard control.withLock({ control in
            defer { control.started = true }
            return !control.started
        }) else { return }
        if configuration.releasesLeasesOnStart { try store.releaseLeases() }
        let inbox = inbox
        let http = try HTTP2Client(configuration.client) { completion in
            inbox.answers.withLock { $0.append(completion) }
            inbox.signal.signal()
        }
        client.withLock { $0 = http }
        let loop = SenderLoop(sender: self, client: http)
        let thread = Thread { loop.run() }
        thread.name = "widgethost-apns"
        thread.start()
    }

    /// Wakes the sender to look at the outbox now (after something was queued).
    public func wake() {
        control.withLock { $0.wakeRequested = true }
        inbox.signal.signal()
    }

    /// Stops claiming, waits up to `grace` for the answers in flight and records them, then closes the connections.
    /// Pushes still unanswered stay leased; the next sender sends them again.
    public func stop(grace: Duration = .seconds(5)) {
        let stopped = DispatchSemaphore(value: 0)
        let running = control.withLock { control in
            guard control.started, !control.stopping else { return false }
            control.stopping = true
            control.stopped = stopped
            control.grace = grace
            return true
        }
        guard running else { return }
        inbox.signal.signal()
        _ = stopped.wait(timeout: .now() + grace.seconds + 5)
        client.withLock { $0?.shutdown() }
    }

    /// The last error the sender's loop met (a database error), if any; the loop keeps going.
    public var lastError: String? { control.withLock { $0.lastError } }

    /// Requests in flight now.
    public var inFlight: Int { client.withLock { $0?.inFlight ?? 0 } }
}
