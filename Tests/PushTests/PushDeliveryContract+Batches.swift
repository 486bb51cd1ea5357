import Foundation
import Push
import Synchronization
import Testing

/// The contract's promises for whole batches, which PostgreSQL's outbox keeps with set-based statements: one
/// refusal refuses all and names the first push refused; a batch of answers gives each push its own; two senders
/// recording overlapping batches at once both land.
extension PushDeliveryContract {
    static let batchCases: [PushDeliveryContract] = [
        PushDeliveryContract(name: "a refused batch names its first refused push: a dead token or a taken apns-id") { subject in
            let dead = S.token(0xDE)
            let answered = S.push(to: dead)
            try subject.queue.enqueue(contentsOf: [answered])
            #expect(try subject.claim(at: 0) == [answered.apnsID])
            try subject.queue.record([DeliveryAttempt(apnsID: answered.apnsID, outcome: .unregistered, status: 410,
                                                      result: "Unregistered")], at: S.now)
            let first = S.push(to: S.token(1))
            var twin = S.push(to: S.token(2))
            twin.apnsID = first.apnsID
            let toDead = S.push(to: dead)
            let deadError = PushOutboxError.deadToken(token: String(repeating: "de", count: 32), reason: "Unregistered")
            #expect(throws: deadError) {
                try subject.queue.enqueue(contentsOf: [S.push(to: S.token(6)), S.push(to: S.token(7)), toDead])
            }
            #expect(try subject.queue.pendingCount() == 0, "nothing of a batch with a dead token is queued")
            #expect(throws: deadError) {
                try subject.queue.enqueue(contentsOf: [first, S.push(to: S.token(3)), toDead, twin])
            }
            #expect(throws: PushOutboxError.duplicateAPNsID(first.apnsID)) {
                try subject.queue.enqueue(contentsOf: [first, twin, toDead])
            }
            try subject.queue.enqueue(contentsOf: [first])
            #expect(throws: PushOutboxError.duplicateAPNsID(first.apnsID)) {
                try subject.queue.enqueue(contentsOf: [S.push(to: S.token(4)), first, toDead])
            }
            #expect(try subject.queue.pendingCount() == 1)
            #expect(try subject.queue.push(apnsID: toDead.apnsID) == nil)
        },
        PushDeliveryContract(name: "a batch of 120 answers gives each push its own; its 410s kill two tokens") { subject in
            let pushes = (0..<120).map { S.push(to: S.token(UInt8($0))) }
            let waiting = [S.push(to: S.token(5), due: 100), S.push(to: S.token(50), due: 100)]
            try subject.queue.enqueue(contentsOf: pushes + waiting)
            #expect(try subject.claim(at: 0, limit: 200).count == 120)
            let answers = pushes.enumerated().map { index, push in
                switch index {
                case 5, 50: DeliveryAttempt(apnsID: push.apnsID, outcome: .unregistered, status: 410,
                                            result: "Unregistered \(index)")
                case _ where index % 3 == 0: DeliveryAttempt(apnsID: push.apnsID, outcome: .delivered, status: 200,
                                                             result: "delivered")
                case _ where index % 3 == 1: DeliveryAttempt(apnsID: push.apnsID, outcome: .failed, status: 400,
                                                             result: "BadDeviceToken \(index)")
                default: DeliveryAttempt(apnsID: push.apnsID,
                                         outcome: .retry(at: S.now.addingTimeInterval(Double(index)),
                                                         providerTokenRetry: index % 2 == 0),
                                         status: 503, result: "ServiceUnavailable \(index)")
                }
            }
            try subject.queue.record(answers.reversed(), at: S.now.addingTimeInterval(1))
            for (index, push) in pushes.enumerated() {
                let stored = try subject.fetch(push)
                #expect(stored.attempts == 1 && stored.lastResult == answers[index].result, "push \(index)")
                #expect(stored.apnsStatus == answers[index].status, "push \(index)")
                switch answers[index].outcome {
                case .delivered: #expect(stored.status == .delivered, "push \(index)")
                case .failed, .unregistered: #expect(stored.status == .failed, "push \(index)")
                case .retry(let at, let providerTokenRetry):
                    #expect(stored.status == .pending && stored.nextAttemptAt == at, "push \(index)")
                    #expect(stored.providerTokenRetries == (providerTokenRetry ? 1 : 0), "push \(index)")
                }
            }
            #expect(try subject.queue.deadTokenReason(S.token(5)) == "Unregistered 5")
            #expect(try subject.queue.deadTokenReason(S.token(50)) == "Unregistered 50")
            #expect(try subject.queue.deadTokenReason(S.token(6)) == nil)
            for push in waiting {
                let failed = try subject.fetch(push)
                #expect(failed.status == .failed && failed.attempts == 0)
                #expect(failed.lastResult?.hasPrefix("TokenInvalidated") == true)
            }
            let retries = answers.filter { if case .retry = $0.outcome { true } else { false } }
            #expect(try subject.queue.pendingCount() == retries.count)
        },
        PushDeliveryContract(name: "two senders recording overlapping batches at once, in opposite orders, both land") { subject in
            let pushes = (0..<200).map { S.push(to: S.token(UInt8($0 % 250))) }
            try subject.queue.enqueue(contentsOf: pushes)
            #expect(try subject.claim(at: 0, limit: 500).count == 200)
            let rounds = 6
            let errors = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { sender in
                let ordered = sender == 0 ? pushes : pushes.reversed()
                let answers = ordered.map {
                    DeliveryAttempt(apnsID: $0.apnsID, outcome: .retry(at: S.now, providerTokenRetry: false),
                                    status: 429, result: "TooManyRequests")
                }
                do {
                    for _ in 0..<rounds { try subject.queue.record(answers, at: S.now) }
                } catch {
                    errors.withLock { $0.append("\(error)") }
                }
            }
            #expect(errors.withLock { $0 }.isEmpty)
            for push in pushes { #expect(try subject.fetch(push).attempts == 2 * rounds) }
        },
    ]
}
