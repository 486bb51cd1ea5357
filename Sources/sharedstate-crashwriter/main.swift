// sharedstate-crashwriter: the child process of SharedState's crash-durability tests.
//
// Usage: sharedstate-crashwriter <data-directory> <group-identifier>
//
// Opens the container (synchronous = FULL) and writes forever: each transaction inserts the
// next sequence number into `crash_acks` and sets the defaults key `last` to it. After a
// commit returns, it writes the number on its own line, unbuffered, to standard output: that line
// is the acknowledgement the test holds the database to after SIGKILL. It stops by itself
// when its parent goes away, so a failed test leaves no writer behind.
import Foundation
import SharedState

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: sharedstate-crashwriter <data-directory> <group-identifier>\n".utf8))
    exit(64)
}

do {
    let container = try AppGroupContainer(identifier: arguments[2],
                                          dataDirectory: URL(fileURLWithPath: arguments[1]), synchronous: .full)
    var migrator = Migrator()
    migrator.registerMigration("CrashWriter.1-acks") { db in
        try db.execute("CREATE TABLE crash_acks(seq INTEGER PRIMARY KEY, written_at REAL NOT NULL)")
    }
    try migrator.migrate(container.store)
    let suite = container.suite()
    let parent = getppid()
    var sequence = try container.store.read { db in
        try db.scalar("SELECT coalesce(max(seq), 0) FROM crash_acks", as: Int.self) ?? 0
    }
    while getppid() == parent {
        sequence += 1
        try container.store.write { db in
            try db.execute("INSERT INTO crash_acks(seq, written_at) VALUES (?, ?)", [sequence.sqlValue, Date().sqlValue])
            try suite.set(.integer(sequence), forKey: "last", in: db)
        }
        // FileHandle writes straight to the descriptor: nothing sits in a buffer when the kill comes.
        FileHandle.standardOutput.write(Data("\(sequence)\n".utf8))
    }
} catch {
    FileHandle.standardError.write(Data("sharedstate-crashwriter: \(error)\n".utf8))
    exit(1)
}
