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
    /// Concurrency: **one** writer connection, whose work runs on a thread pool of its own with **one**
    /// thread. sqlite-nio submits each query (prepare, bind, every step) as one work item, so writes
    /// execute one after another in submission order: no two writes of this process ever contend for
    /// SQLite's lock, so `SQLITE_BUSY` cannot arise within the process. A file database also gets
    /// ``readerCount`` reader connections (WAL lets them read the last committed state while the
    /// writer writes) for plain `SELECT`s; an in-memory database exists per connection, so it has the
    /// writer only. `busy_timeout` bounds the wait when another process (say, a CLI reading the file)
    /// holds a lock.
    ///
    /// Call the returned `shutdown` once the store is no longer used: it closes the connections, then
    /// stops the thread pools.
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
        let resources = SQLiteResources()
        do {
            let writer = try await resources.open(storage, threads: 1, logger: logger, on: resources.writerEventLoop)
            try await configure(writer, isFile: storage != .memory, logger: logger)
            let migrating = SQLStore(database: writer.sql(queryLogLevel: .trace), sealer: sealer)
            try await migrating.migrate()
            try await migrating.sealPlaintextSecrets(logger: logger)
            var readers: [any SQLDatabase] = []
            if storage != .memory {
                for _ in 0..<readerCount {
                    let reader = try await resources.open(storage, threads: 1, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())
                    _ = try await reader.query("PRAGMA busy_timeout = 5000")
                    _ = try await reader.query("PRAGMA query_only = ON")
                    readers.append(reader.sql(queryLogLevel: .trace))
                }
            }
            let store = SQLStore(connections: SQLiteConnections(writer: writer.sql(queryLogLevel: .trace), readers: readers), sealer: sealer)
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

/// The connections and their thread pools behind a SQLite ``SQLStore``: each connection has a
/// one-thread pool of its own, so its queries run in submission order. The writer has an event loop
/// of its own too: its transactions resume there between statements (``GatedConnection``), and a long
/// transaction body then holds up no HTTP connection.
final class SQLiteResources: Sendable {
    private let writerEventLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    var writerEventLoop: any EventLoop { writerEventLoopGroup.next() }

    private struct Opened {
        var connections: [SQLiteConnection] = []
        var threadPools: [NIOThreadPool] = []
        var isShutDown = false
    }

    private let opened = Mutex(Opened())

    func open(_ storage: SQLiteConnection.Storage, threads: Int, logger: Logger, on eventLoop: any EventLoop) async throws -> SQLiteConnection {
        let threadPool = NIOThreadPool(numberOfThreads: threads)
        threadPool.start()
        opened.withLock { $0.threadPools.append(threadPool) }
        let connection = try await SQLiteConnection.open(
            storage: storage, threadPool: threadPool, logger: logger, on: eventLoop)
        opened.withLock { $0.connections.append(connection) }
        return connection
    }

    /// Closes the connections, then stops the thread pools (which the closes run on) and the writer's
    /// event loop. Idempotent.
    func shutdown() async throws {
        let toClose = opened.withLock { opened -> Opened? in
            guard !opened.isShutDown else { return nil }
            opened.isShutDown = true
            return opened
        }
        guard let toClose else { return }
        var firstError: (any Error)?
        for connection in toClose.connections {
            do { try await connection.close().get() } catch { firstError = firstError ?? error }
        }
        for threadPool in toClose.threadPools {
            do { try await threadPool.shutdownGracefully() } catch { firstError = firstError ?? error }
        }
        do { try await writerEventLoopGroup.shutdownGracefully() } catch { firstError = firstError ?? error }
        if let firstError { throw firstError }
    }
}
