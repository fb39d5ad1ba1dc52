import Foundation
import Logging
import OwnerOnlyFiles
import SQLKit
import SQLiteKit

/// Juice's SQLite database: one connection on a thread of its own, the schema migrated on open.
///
/// Every change Juice makes is one statement (account creation with its first-authorization data,
/// deletion cascading to sessions and orders), so no transaction has to be shared on the connection.
public final class JuiceDatabase: Sendable {
    let sql: any SQLDatabase
    /// Seals the Apple refresh tokens the stores write, and opens those they read.
    let tokens: RefreshTokenSealer
    private let connection: SQLiteConnection
    private let threadPool: NIOThreadPool

    private init(connection: SQLiteConnection, threadPool: NIOThreadPool, tokens: RefreshTokenSealer) {
        self.connection = connection
        self.threadPool = threadPool
        self.tokens = tokens
        self.sql = connection.sql(queryLogLevel: .trace)
    }

    /// Opens (creating it and its folder) the database file at `path`; `nil` opens a private in-memory one.
    /// Refresh tokens are sealed with `tokens`: by default the `storage.key` beside a file (made once)
    /// or `JUICE_STORAGE_KEY`, and a throw-away key for an in-memory database.
    ///
    /// The folder is `0700` before anything is in it, and `storage.key` and the database `0600` from
    /// their first byte (the database's `-wal` and `-shm` take its permissions).
    public static func open(path: String?, logger: Logger, tokens: RefreshTokenSealer? = nil) async throws -> JuiceDatabase {
        let url = path.map { URL(fileURLWithPath: $0).standardizedFileURL }
        if let url { try PrivateFiles.makeDirectory(url.deletingLastPathComponent()) }
        let sealer =
            try tokens ?? (url.map { try RefreshTokenSealer.load(directory: $0.deletingLastPathComponent()) } ?? RefreshTokenSealer.ephemeral())
        let storage: SQLiteConnection.Storage
        if let url {
            try PrivateFiles.touch(url)
            storage = .file(path: url.path)
        } else {
            storage = .memory
        }
        let threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        do {
            let connection = try await SQLiteConnection.open(
                storage: storage, threadPool: threadPool, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())
            let database = JuiceDatabase(connection: connection, threadPool: threadPool, tokens: sealer)
            try await database.migrate(isFile: path != nil)
            return database
        } catch {
            try? await threadPool.shutdownGracefully()
            throw error
        }
    }

    /// Closes the connection, then its thread.
    public func close() async throws {
        try await connection.close().get()
        try await threadPool.shutdownGracefully()
    }

    private func migrate(isFile: Bool) async throws {
        _ = try await connection.query("PRAGMA busy_timeout = 5000")
        if isFile { _ = try await connection.query("PRAGMA journal_mode = WAL") }
        _ = try await connection.query("PRAGMA foreign_keys = ON")
        let applied = try await connection.query("PRAGMA user_version").first?.column("user_version")?.integer ?? 0
        for (index, statements) in JuiceSchema.versions.enumerated() where index + 1 > applied {
            for statement in statements { try await sql.raw(SQLQueryString(statement)).run() }
            _ = try await connection.query("PRAGMA user_version = \(index + 1)")
        }
    }
}
