import SQLiteNIO
import VaporCSQLite

extension SQLiteHandle {
    /// Runs a passive checkpoint of the write-ahead log (it copies what no reader still needs into
    /// the database file and syncs it, and never waits for a lock); answers the log's size and how
    /// much of it is now in the database, in pages.
    func checkpointPassively() throws -> (logPages: Int32, checkpointedPages: Int32) {
        guard let raw = openHandle else { throw SQLiteStatementError(code: SQLITE_MISUSE, message: "the connection is closed") }
        var logPages: Int32 = 0
        var checkpointed: Int32 = 0
        let result = sqlite_nio_sqlite3_wal_checkpoint_v2(raw, nil, SQLITE_CHECKPOINT_PASSIVE, &logPages, &checkpointed)
        // SQLITE_BUSY: another connection (a CLI, say) is checkpointing; the next commit asks again.
        guard result == SQLITE_OK || result == SQLITE_BUSY else {
            throw SQLiteStatementError(code: result, message: String(cString: sqlite_nio_sqlite3_errmsg(raw)))
        }
        // -1: the connection does not see a log (it has not read the database yet, or it is not in WAL mode).
        guard logPages >= 0 else { throw SQLiteStatementError(code: SQLITE_MISUSE, message: "no write-ahead log to checkpoint") }
        return (logPages, checkpointed)
    }

    /// Hands every commit's log size to `listener` (on this handle's thread, inside the commit), in
    /// place of SQLite's own automatic checkpoint, which would run the checkpoint inside the commit.
    /// The handle keeps `listener` until it closes.
    func onCommit(_ listener: WALCommitListener) {
        guard let raw = openHandle else { return }
        commitListener = listener
        _ = sqlite_nio_sqlite3_wal_hook(
            raw,
            { context, _, _, pages in
                guard let context else { return SQLITE_OK }
                Unmanaged<WALCommitListener>.fromOpaque(context).takeUnretainedValue().committed(pages)
                return SQLITE_OK
            }, Unmanaged.passUnretained(listener).toOpaque())
    }
}

/// What a commit tells the checkpointer: the write-ahead log's size in pages.
final class WALCommitListener: Sendable {
    let committed: @Sendable (Int32) -> Void

    init(_ committed: @escaping @Sendable (Int32) -> Void) { self.committed = committed }
}
