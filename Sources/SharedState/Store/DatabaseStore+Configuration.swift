extension DatabaseStore {
    /// SQLite's `synchronous` setting: how hard a commit works to reach the disk.
    ///
    /// In WAL mode, `full` syncs the write-ahead log at every commit, so a transaction whose
    /// `COMMIT` returned survives a crash or power loss; `normal` may lose the last
    /// transactions on power loss (never on a process kill) and is much faster.
    ///
    /// See [PRAGMA synchronous](https://www.sqlite.org/pragma.html#pragma_synchronous).
    public enum Synchronous: String, Sendable, CaseIterable {
        case off = "OFF"
        case normal = "NORMAL"
        case full = "FULL"
        case extra = "EXTRA"
    }

    /// How a store opens its connections.
    public struct Configuration: Sendable {
        /// Durability of commits; `full` by default, so acknowledged writes survive `kill -9`
        /// and power loss.
        public var synchronous: Synchronous
        /// How long a connection waits for a lock held by another connection or process before
        /// failing with `SQLITE_BUSY`.
        ///
        /// See [sqlite3_busy_timeout](https://www.sqlite.org/c3ref/busy_timeout.html).
        public var busyTimeout: Duration
        /// The number of read-only connections of an on-disk store (at least 1).
        public var readerCount: Int

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - synchronous: Durability of commits.
        ///   - busyTimeout: Wait for locks held elsewhere.
        ///   - readerCount: Read-only connections of an on-disk store; values below 1 mean 1.
        public init(synchronous: Synchronous = .full, busyTimeout: Duration = .seconds(5), readerCount: Int = 4) {
            self.synchronous = synchronous
            self.busyTimeout = busyTimeout
            self.readerCount = max(1, readerCount)
        }
    }

    /// What ``DatabaseStore/checkpoint()`` achieved.
    ///
    /// See [sqlite3_wal_checkpoint_v2](https://www.sqlite.org/c3ref/wal_checkpoint_v2.html).
    public struct CheckpointResult: Sendable, Equatable {
        /// Whether the checkpoint ran to completion (`false` when a reader blocked it).
        public var isComplete: Bool
        /// Frames in the write-ahead log before the checkpoint truncated it.
        public var logFrames: Int
        /// Frames copied into the database file.
        public var checkpointedFrames: Int
    }
}
