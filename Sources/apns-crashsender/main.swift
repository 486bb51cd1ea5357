// apns-crashsender: the child process of the APNs sender's crash test.
//
// Usage: apns-crashsender send|drain <database> <endpoint> <ca-file> <p8-file> <key-id> <team-id> <bundle-id> [count]
//
// Both forms run an APNsSender (one connection, a window of 100, leases taken back at start) on the push store at
// <database>; a PostgreSQL connection string there (`postgres://…`, or `key=value` with `dbname=`) is an outbox
// (PostgresPushOutbox) that other senders share: leases of 3 s (requests time out after 2), left alone at start. `send` queues <count> Live Activity pushes in transactions of 20 while the sender drains them, and after
// each commit writes the apns-ids it acknowledged, one per line, unbuffered; then it waits to be killed (the test
// sends SIGKILL at a random moment of the burst). `drain` sends what is pending (pushes the killed sender had in
// flight included) and exits 0 once nothing is pending, or 1 after two minutes. Either stops when its parent goes
// away, so a failed test leaves nothing behind.
import APNs
import Foundation
import PostgresStore
import Push
import SharedState

let arguments = CommandLine.arguments
guard arguments.count >= 9, ["send", "drain"].contains(arguments[1]),
      let endpoint = URL(string: arguments[3]) else {
    FileHandle.standardError.write(Data("usage: apns-crashsender send|drain <database> <endpoint> <ca-file> <p8-file> <key-id> <team-id> <bundle-id> [count]\n".utf8))
    exit(64)
}
let parent = getppid()

do {
    let shared = arguments[2].hasPrefix("postgres://") || arguments[2].hasPrefix("postgresql://")
        || arguments[2].contains("dbname=")
    let store: any PushDeliveryQueue = shared
        ? try PostgresPushOutbox(pool: PostgresPool(connectionString: arguments[2]))
        : try PushStore(database: DatabaseStore(path: arguments[2]), bundleIdentifier: arguments[8], now: Date.init)
    let key = try ProviderKey(keyID: arguments[6], path: arguments[5])
    let token = try ProviderToken(key: key, teamID: arguments[7])
    let client = HTTP2Client.Configuration(endpoint: endpoint, caFile: arguments[4], connections: 1,
                                           requestTimeout: .seconds(shared ? 2 : 30))
    let sender = try APNsSender(store: store, providerToken: token,
                                configuration: APNsSender.Configuration(client: client, window: 100,
                                                                        lease: .seconds(shared ? 3 : 60),
                                                                        idlePoll: .milliseconds(10),
                                                                        releasesLeasesOnStart: !shared))
    try sender.start()
    if arguments[1] == "send" {
        let count = arguments.count > 9 ? Int(arguments[9]) ?? 3000 : 3000
        var queued = 0
        while queued < count {
            let batch = (0..<min(20, count - queued)).map { index in
                let n = queued + index
                var bytes = [UInt8](repeating: 0xCD, count: 32)
                bytes[30] = UInt8(truncatingIfNeeded: n >> 8)
                bytes[31] = UInt8(truncatingIfNeeded: n)
                return OutboxPush(
                    activityID: "activity-\(n % 10)", deviceToken: Data(bytes),
                    headers: PushHeaders(pushType: .liveActivity, bundleIdentifier: arguments[8], priority: .low),
                    payload: Data(#"{"aps":{"timestamp":\#(1_700_000_000 + n),"event":"update","content-state":{"n":\#(n)}}}"#.utf8),
                    createdAt: Date(), dueAt: Date())
            }
            try store.enqueue(contentsOf: batch)
            sender.wake()
            FileHandle.standardOutput.write(Data(batch.map { $0.apnsID.uuidString + "\n" }.joined().utf8))
            queued += batch.count
        }
        while getppid() == parent { usleep(50_000) }
    } else {
        let deadline = Date().addingTimeInterval(120)
        while try store.pendingCount() > 0 {
            guard Date() < deadline, getppid() == parent else {
                FileHandle.standardError.write(Data("apns-crashsender: still pending: \(try store.pendingCount()); \(sender.lastError ?? "")\n".utf8))
                exit(1)
            }
            usleep(20_000)
        }
        sender.stop()
        print("drained")
    }
} catch {
    FileHandle.standardError.write(Data("apns-crashsender: \(error)\n".utf8))
    exit(1)
}
