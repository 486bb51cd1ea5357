import Foundation
import JSON
import Push
import SharedState

/// `intents-crashperformer plan <data-directory> <first-sequence>`: submits a stream of state changes to the push
/// planner in `<data-directory>/push.sqlite` (synchronous = FULL), one new activity per sequence number, each with
/// its update token registered first, so that each change is planned as a push. After `submit` returns (after its
/// commit), it writes `<n> <apns-id>` on its own line, unbuffered: the acknowledgement the test holds the outbox to
/// after SIGKILL. The planner's clock moves a minute per sequence number, so its dates are the same on every run.
enum PlanPerformer {
    static func run(dataDirectory: URL, first: Int) throws {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        let database = try DatabaseStore(path: dataDirectory.appendingPathComponent("push.sqlite").path)
        let sequence = Counter(first)
        let store = try PushStore(database: database, now: { Date(timeIntervalSince1970: 1_800_000_000 + 60 * Double(sequence.value)) })
        var n = first
        while getppid() != 1 {
            sequence.set(n)
            let activity = "activity-\(n)"
            var token = Data(count: 32)
            withUnsafeBytes(of: UInt64(n).bigEndian) { token.replaceSubrange(24..<32, with: $0) }
            try store.tokens.register(token, in: .activity(id: activity), attributesType: "CrashAttributes")
            let decision = try store.planner.submit(activityID: activity, attributesType: "CrashAttributes",
                                                    state: .object(["n": .int(n)]))
            let line = "\(n) \(decision.apnsID?.uuidString ?? "none")\n"
            FileHandle.standardOutput.write(Data(line.utf8))
            n += 1
        }
    }

    /// The sequence number the planner's clock reads.
    final class Counter: @unchecked Sendable {
        // @unchecked Sendable: set and read on the performer's one thread; the planner reads it inside `submit`,
        // which runs on that thread too.
        private(set) var value: Int
        init(_ value: Int) { self.value = value }
        func set(_ value: Int) { self.value = value }
    }
}
