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
    /// Concurrency: the store uses exactly **one** SQLite connection, and that connection's work runs
    /// on a thread pool of its own with **one** thread. sqlite-nio submits each query (prepare, bind,
    /// every step) as one work item, so queries execute one after another in submission order: no
    /// two statements of this process ever contend for SQLite's locks, so `SQLITE_BUSY` cannot arise
    /// within the process, and an in-memory database (which exists per connection) is one database.
    /// `busy_timeout` bounds the wait when another process (say, a CLI reading the file) holds a lock;
    /// WAL lets such readers run alongside the server's writes.
    ///
    /// Call the returned `shutdown` once the store is no longer used: it closes the connection, then
    /// stops the thread pool.
    ///
    /// With a `sealer`, signing keys are sealed at rest and any written earlier without one are sealed now.
    public static func sqlite(
        path: String, logger: Logger, sealer: SecretSealer? = nil
    ) async throws -> (store: SQLStore, shutdown: SQLStoreShutdown) {
        let storage: SQLiteConnection.Storage
        if path == sqliteMemoryPath {
            storage = .memory
        } else {
            let url = URL(fileURLWithPath: path).standardizedFileURL
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            storage = .file(path: url.path)
        }

        let threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(
                storage: storage, threadPool: threadPool, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any()
            )
        } catch {
            try? await threadPool.shutdownGracefully()
            throw error
        }

        let resources = SQLiteResources(connection: connection, threadPool: threadPool)
        do {
            try await configure(connection, isFile: storage != .memory, logger: logger)
            let store = SQLStore(database: connection.sql(queryLogLevel: .trace), sealer: sealer)
            try await store.migrate()
            try await store.sealPlaintextSecrets(logger: logger)
            return (store, { try await resources.shutdown() })
        } catch {
            try? await resources.shutdown()
            throw error
        }
    }

    /// A private in-memory SQLite store: ``sqlite(path:logger:)`` with ``sqliteMemoryPath``.
    public static func sqliteInMemory(logger: Logger) async throws -> (store: SQLStore, shutdown: SQLStoreShutdown) {
        try await sqlite(path: sqliteMemoryPath, logger: logger)
    }

    /// Per-connection settings (SQLite-only, hence raw SQL and not part of the portable store code).
    private static func configure(_ connection: SQLiteConnection, isFile: Bool, logger: Logger) async throws {
        // Replaces sqlite-nio's default busy handler, which retries forever, with a bounded wait.
        _ = try await connection.query("PRAGMA busy_timeout = 5000")
        if isFile {
            // Persistent: recorded in the file. In-memory databases stay in "memory" mode.
            let mode = try await connection.query("PRAGMA journal_mode = WAL").first?.column("journal_mode")?.string
            if mode?.lowercased() != "wal" {
                logger.warning("SQLite did not switch to WAL", metadata: ["journal_mode": "\(mode ?? "?")"])
            }
        }
        _ = try await connection.query("PRAGMA synchronous = NORMAL")
        _ = try await connection.query("PRAGMA foreign_keys = ON")
    }
}

/// The connection and the thread pool behind a SQLite ``SQLStore``.
final class SQLiteResources: Sendable {
    let connection: SQLiteConnection
    let threadPool: NIOThreadPool
    private let isShutDown = Mutex(false)

    init(connection: SQLiteConnection, threadPool: NIOThreadPool) {
        self.connection = connection
        self.threadPool = threadPool
    }

    /// Closes the connection, then stops the thread pool (which the close runs on). Idempotent.
    func shutdown() async throws {
        let isFirst = isShutDown.withLock { done in
            defer { done = true }
            return !done
        }
        guard isFirst else { return }
        do {
            try await connection.close().get()
        } catch {
            try? await threadPool.shutdownGracefully()
            throw error
        }
        try await threadPool.shutdownGracefully()
    }
}
