import Foundation
import Push

/// The sender's thread: claim, submit, record, wait; until stopped.
final class SenderLoop: @unchecked Sendable {
    // @unchecked: created by `APNsSender.start()` and from then on used only on the sender's thread.
    private let sender: APNsSender
    private let client: HTTP2Client
    private var inFlight: [UInt64: (push: OutboxPush, jwt: String)] = [:]
    private var nextTag: UInt64 = 0
    /// Answers decided but not yet recorded (a failed transaction is tried again).
    private var unrecorded: [DeliveryAttempt] = []
    /// Whether the last claim filled its limit, so more may be due now.
    private var moreDue = true
    private var lastClaim = ContinuousClock.now
    private var lastDepth = ContinuousClock.now - .seconds(10)
    private let clock = ContinuousClock()
    /// The most pushes one claim takes.
    private let claimLimit = 500

    init(sender: APNsSender, client: HTTP2Client) {
        self.sender = sender
        self.client = client
    }

    func run() {
        var stopDeadline: ContinuousClock.Instant?
        while true {
            let (stopping, grace, woken) = sender.control.withLock { control in
                defer { control.wakeRequested = false }
                return (control.stopping, control.grace, control.wakeRequested)
            }
            let answered = collectAnswers()
            record()
            if stopping {
                let deadline = stopDeadline ?? clock.now + grace
                stopDeadline = deadline
                if inFlight.isEmpty || clock.now >= deadline {
                    let stopped = sender.control.withLock { $0.stopped }
                    stopped?.signal()
                    return
                }
                _ = sender.inbox.signal.wait(timeout: .now() + 0.05)
                continue
            }
            publishQueueDepth()
            let room = sender.configuration.window - inFlight.count
            let idle = clock.now - lastClaim >= sender.configuration.idlePoll
            var claimedFull = false
            if room > 0, moreDue || woken || idle || answered {
                claimedFull = claimAndSend(min(room, claimLimit))
            }
            if !claimedFull && answered == false {
                _ = sender.inbox.signal.wait(timeout: .now() + sender.configuration.idlePoll.seconds)
            }
        }
    }

    /// Counts the pending pushes for the metrics, at most once a second.
    private func publishQueueDepth() {
        guard clock.now - lastDepth >= .seconds(1) else { return }
        lastDepth = clock.now
        do {
            sender.metrics.recordQueueDepth(try sender.store.pendingCount())
        } catch {
            note(error)
        }
    }

    /// Decides every answer that came in. Returns whether there was any.
    private func collectAnswers() -> Bool {
        let completions = sender.inbox.answers.withLock { answers in
            defer { answers.removeAll(keepingCapacity: true) }
            return answers
        }
        guard !completions.isEmpty else { return false }
        let now = Date()
        for completion in completions {
            guard let (push, jwt) = inFlight.removeValue(forKey: completion.tag) else { continue }
            let delivery = APNsAnswer.decide(push, completion.result, policy: sender.configuration.retry, now: now) {
                do {
                    _ = try sender.providerToken.renew(rejected: jwt)
                    sender.metrics.recordProviderTokenRenewal()
                } catch {
                    note(error)
                }
            }
            let latency: Duration? = if case .success = completion.result { completion.latency } else { nil }
            sender.metrics.record(Self.metricsOutcome(delivery), latency: latency)
            unrecorded.append(delivery)
        }
        return true
    }

    /// Records what was decided, in one transaction.
    private func record() {
        guard !unrecorded.isEmpty else { return }
        do {
            try sender.store.record(unrecorded, at: Date())
            if unrecorded.contains(where: { if case .retry = $0.outcome { true } else { false } }) { moreDue = true }
            unrecorded.removeAll(keepingCapacity: true)
        } catch {
            note(error)
        }
    }

    /// Claims up to `limit` due pushes and submits them. Returns whether the claim filled its limit.
    private func claimAndSend(_ limit: Int) -> Bool {
        lastClaim = clock.now
        let claimed: [OutboxPush]
        let token: ProviderToken.Signed
        do {
            claimed = try sender.store.claimDue(limit: limit, dueBy: sender.dueClock(), at: Date(),
                                                lease: sender.configuration.lease)
            token = try sender.providerToken.token()
        } catch {
            note(error)
            return false
        }
        moreDue = claimed.count == limit
        var sent = 0
        for push in claimed {
            guard push.headers.channelID == nil, let deviceToken = push.deviceToken else {
                let delivery = DeliveryAttempt(
                    apnsID: push.apnsID, outcome: .failed, status: nil,
                    result: "UnsupportedChannelPush: broadcast pushes go to APNs's channel endpoint, which this sender "
                        + "does not send to")
                sender.metrics.record(.failed(reason: "UnsupportedChannelPush"), latency: nil)
                unrecorded.append(delivery)
                continue
            }
            let request: HTTP2Request
            do {
                request = try Self.request(push, deviceToken: deviceToken, jwt: token.jwt, tag: nextTag)
            } catch {
                let delivery = DeliveryAttempt(apnsID: push.apnsID, outcome: .failed, status: nil,
                                            result: "InvalidPush: \(error)")
                sender.metrics.record(.failed(reason: "InvalidPush"), latency: nil)
                unrecorded.append(delivery)
                continue
            }
            inFlight[nextTag] = (push, token.jwt)
            nextTag &+= 1
            if client.submit(request) { sent += 1 } else { inFlight[request.tag] = nil }
        }
        sender.metrics.recordSent(sent)
        return moreDue
    }

    /// The APNs request for `push`.
    static func request(_ push: OutboxPush, deviceToken: Data, jwt: String, tag: UInt64) throws -> HTTP2Request {
        var headers: [(name: String, value: String)] = [("authorization", "bearer " + jwt),
                                                        ("apns-id", push.apnsID.uuidString.lowercased())]
        headers += try push.headers.fields()
        if let collapseID = push.collapseID { headers.append(("apns-collapse-id", collapseID)) }
        return HTTP2Request(tag: tag, path: "/3/device/" + PushTokenText.hex(deviceToken), headers: headers,
                            body: push.payload)
    }

    private static func metricsOutcome(_ delivery: DeliveryAttempt) -> APNsMetrics.Outcome {
        switch delivery.outcome {
        case .delivered: .delivered
        case .retry: .retry
        case .failed, .unregistered:
            .failed(reason: String(delivery.result.prefix { $0 != " " && $0 != ":" && $0 != "(" }))
        }
    }

    private func note(_ error: any Error) {
        sender.control.withLock { $0.lastError = "\(error)" }
        usleep(20_000)
    }
}
