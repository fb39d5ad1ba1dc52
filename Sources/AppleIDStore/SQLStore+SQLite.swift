import Foundation
import Logging
import SQLiteKit
import Synchronization

/// Closes what ``SQLStore/sqlite(path:logger:)`` opened. Safe to call more than once.
public typealias SQLStoreShutdown = @Sendable () async throws -> Void

extension SQLStore {
    /// The path that selects a private in-memory database (tests, throw-away runs).
    public static let sqliteMemoryPath = ":memory:"

    /// Opens (creating it and its parent directories if needed) the SQLite database at `path`,
    /// configures it and runs ``migrate()``. `":memory:"` opens a private in-memory database.
    ///
    /// Concurrency: **one** writer connection, whose work runs on a thread of its own
    /// (``SQLiteSerialConnection``): each statement (bind, every step, with its prepared statement kept
    /// for the next run of the same text) is one work item, so writes execute one after another in
    /// submission order: no two writes of this process ever contend for
    /// SQLite's lock, so `SQLITE_BUSY` cannot arise within the process. A file database also gets
    /// ``readerCount`` reader connections (WAL lets them read the last committed state while the
    /// writer writes) for plain `SELECT`s; an in-memory database exists per connection, so it has the
    /// writer only. `busy_timeout` bounds the wait when another process (say, a CLI reading the file)
    /// holds a lock. A file database's log is checkpointed on one more connection
    /// (``SQLiteWALCheckpointer``), never inside a commit, unless `checkpoints` is
    /// ``SQLiteCheckpoints/inCommit`` (SQLite's own way, for comparison).
    ///
    /// Call the returned `shutdown` once the store is no longer used: it closes the connections, then
    /// stops the thread pools.
    ///
    /// With a `sealer`, signing keys are sealed at rest and any written earlier without one are sealed now.
    public static func sqlite(
        path: String, logger: Logger, sealer: SecretSealer? = nil, checkpoints: SQLiteCheckpoints = .offTheWriter
    ) async throws -> (store: SQLStore, shutdown: SQLStoreShutdown) {
        let isFile = path != sqliteMemoryPath
        var opened = path
        if isFile {
            let url = URL(fileURLWithPath: path).standardizedFileURL
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            opened = url.path
        }
        let resources = SQLiteResources()
        do {
            let writer = try await resources.open(opened, logger: logger, on: resources.writerEventLoop)
            try await configure(writer, isFile: isFile, logger: logger)
            let migrating = SQLStore(database: writer, sealer: sealer)
            try await migrating.migrate()
            try await migrating.sealPlaintextSecrets(logger: logger)
            var readers: [any SQLDatabase] = []
            var checkpointer: SQLiteWALCheckpointer?
            if isFile {
                for _ in 0..<readerCount {
                    let reader = try await resources.open(opened, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())
                    try await reader.raw("PRAGMA busy_timeout = 5000").run()
                    try await reader.raw("PRAGMA query_only = ON").run()
                    readers.append(reader)
                }
            }
            if isFile, checkpoints == .offTheWriter {
                // Commits no longer run SQLite's automatic checkpoint; this connection does.
                let checkpointConnection = try await resources.open(opened, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())
                // A connection sees the log once it has read the database.
                try await checkpointConnection.raw("PRAGMA journal_mode").run()
                let checkpointing = SQLiteWALCheckpointer(connection: checkpointConnection, logger: logger)
                try await checkpointing.watch(writer)
                checkpointer = checkpointing
            }
            let store = SQLStore(connections: SQLiteConnections(writer: writer, readers: readers, checkpointer: checkpointer), sealer: sealer)
            return (store, { try await resources.shutdown() })
        } catch {
            try? await resources.shutdown()
            throw error
        }
    }

    /// Reader connections of a file database: enough to keep both cores of a small machine reading
    /// while the writer writes.
    static let readerCount = 2

    /// A private in-memory SQLite store: ``sqlite(path:logger:)`` with ``sqliteMemoryPath``.
    public static func sqliteInMemory(logger: Logger) async throws -> (store: SQLStore, shutdown: SQLStoreShutdown) {
        try await sqlite(path: sqliteMemoryPath, logger: logger)
    }

    /// Per-connection settings (SQLite-only, hence raw SQL and not part of the portable store code).
    private static func configure(_ connection: any SQLDatabase, isFile: Bool, logger: Logger) async throws {
        try await connection.raw("PRAGMA busy_timeout = 5000").run()
        if isFile {
            // Persistent: recorded in the file. In-memory databases stay in "memory" mode.
            let mode = try await connection.raw("PRAGMA journal_mode = WAL").first()?.decode(column: "journal_mode", as: String.self)
            if mode?.lowercased() != "wal" {
                logger.warning("SQLite did not switch to WAL", metadata: ["journal_mode": "\(mode ?? "?")"])
            }
        }
        try await connection.raw("PRAGMA synchronous = NORMAL").run()
        try await connection.raw("PRAGMA foreign_keys = ON").run()
    }
}

/// The connections behind a SQLite ``SQLStore``: each runs on a thread of its own, so its statements
/// run in submission order (``SQLiteSerialConnection``). The writer has an event loop of its own too:
/// its transactions resume there between statements (``GatedConnection``), and a long transaction
/// body then holds up no HTTP connection.
final class SQLiteResources: Sendable {
    private let writerEventLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    var writerEventLoop: any EventLoop { writerEventLoopGroup.next() }

    private struct Opened {
        var connections: [SQLiteSerialConnection] = []
        var isShutDown = false
    }

    private let opened = Mutex(Opened())

    func open(_ path: String, logger: Logger, on eventLoop: any EventLoop) async throws -> SQLiteSerialConnection {
        let connection = try await SQLiteSerialConnection.open(path: path, eventLoop: eventLoop, logger: logger)
        opened.withLock { $0.connections.append(connection) }
        return connection
    }

    /// Closes the connections (each on its thread, which then stops) and the writer's event loop.
    /// Idempotent.
    func shutdown() async throws {
        let toClose = opened.withLock { opened -> Opened? in
            guard !opened.isShutDown else { return nil }
            opened.isShutDown = true
            return opened
        }
        guard let toClose else { return }
        var firstError: (any Error)?
        for connection in toClose.connections {
            do { try await connection.close() } catch { firstError = firstError ?? error }
        }
        do { try await writerEventLoopGroup.shutdownGracefully() } catch { firstError = firstError ?? error }
        if let firstError { throw firstError }
    }
}
