import Logging
import Synchronization

/// Checkpoints a file database's write-ahead log on a connection and a thread of its own, so that
/// no commit runs one (issue 38). SQLite's automatic checkpoint runs inside the commit that takes the
/// log over 1,000 pages: that commit copies the log into the database file and syncs both, and every
/// write queued behind it on the one writer waits. Here the writer's commits only tell the
/// checkpointer the log's size (``SQLiteHandle/onCommit(_:)``); past the same threshold, the
/// checkpointer runs a passive checkpoint on its own thread while the writer goes on. What a commit
/// makes durable is unchanged: the log, synced before any checkpoint copies it.
final class SQLiteWALCheckpointer: Sendable {
    /// SQLite's own threshold for its automatic checkpoint, in pages.
    static let threshold: Int32 = 1000

    private let connection: SQLiteSerialConnection
    private let logger: Logger
    private let running = Atomic<Bool>(false)
    private let checkpoints = Atomic<Int>(0)
    private let lastLogPages = Atomic<Int32>(0)

    init(connection: SQLiteSerialConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    /// Takes over the checkpoints of `writer`'s commits.
    func watch(_ writer: SQLiteSerialConnection) async throws {
        let listener = WALCommitListener { [self] pages in committed(logPages: pages) }
        try await writer.withHandle { $0.onCommit(listener) }
    }

    /// Called on the writer's thread, inside each commit: asks for a checkpoint past the threshold,
    /// unless one is already asked for or running.
    func committed(logPages: Int32) {
        lastLogPages.store(logPages, ordering: .relaxed)
        guard logPages >= Self.threshold,
            running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        connection.submit { [self] handle in
            defer { running.store(false, ordering: .releasing) }
            do {
                _ = try handle.checkpointPassively()
                checkpoints.add(1, ordering: .relaxed)
            } catch {
                logger.warning("SQLite checkpoint failed; the next commit asks again", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Checkpoints run so far, and the log's size at the last commit, in pages (for tests).
    var progress: (checkpoints: Int, lastLogPages: Int32) {
        (checkpoints.load(ordering: .relaxed), lastLogPages.load(ordering: .relaxed))
    }

    /// The connection the checkpoints run on (for tests: a work item handed to it runs after them).
    var checkpointingConnection: SQLiteSerialConnection { connection }
}
