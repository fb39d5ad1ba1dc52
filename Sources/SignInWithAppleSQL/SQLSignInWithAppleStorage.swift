import Foundation
import SQLKit
import SignInWithApple

/// A ``SignInWithAppleStorage`` in a table of any sql-kit database that speaks `ON CONFLICT` and
/// `RETURNING` (SQLite 3.35+ and PostgreSQL): the app's own database, shared by all its instances.
///
/// Inserting is one `INSERT … ON CONFLICT DO NOTHING`, taking one `DELETE … RETURNING`, so of
/// concurrent takes exactly one gets the entry. Bounded: at ``capacity`` live rows, new entries are
/// refused (``SignInWithAppleStorageError/full(capacity:)``) rather than evicting anybody's.
///
/// ```swift
/// let storage = SQLSignInWithAppleStorage(database: app.db as! any SQLDatabase)
/// try await storage.migrate()
/// let siwa = try SignInWithAppleClient(configuration: configuration, storage: storage)
/// ```
public struct SQLSignInWithAppleStorage: SignInWithAppleStorage {
    public let database: any SQLDatabase
    public let table: String
    public let capacity: Int

    public init(database: any SQLDatabase, table: String = "sign_in_with_apple_entries", capacity: Int = 1_000_000) {
        self.database = database
        self.table = table
        self.capacity = capacity
    }

    /// Creates the table and its expiry index if they do not exist.
    public func migrate() async throws {
        let blob = database.dialect.name == "postgresql" ? "BYTEA" : "BLOB"
        try await database.raw(
            """
            CREATE TABLE IF NOT EXISTS \(ident: table) (
                entry_key TEXT PRIMARY KEY, entry_value \(unsafeRaw: blob) NOT NULL, expires_at DOUBLE PRECISION NOT NULL)
            """
        ).run()
        try await database.raw("CREATE INDEX IF NOT EXISTS \(ident: table + "_expires_at") ON \(ident: table) (expires_at)").run()
    }

    public func insert(_ value: [UInt8], forKey key: String, expiresAt: Date, now: Date) async throws -> Bool {
        let nowSeconds = now.timeIntervalSince1970
        try await database.raw("DELETE FROM \(ident: table) WHERE expires_at <= \(bind: nowSeconds)").run()
        struct Count: Decodable { var live: Int }
        let live = try await database.raw("SELECT COUNT(*) AS live FROM \(ident: table)").first(decoding: Count.self)?.live ?? 0
        if live >= capacity {
            // The key may be there already (a live duplicate answers false, as below).
            guard try await exists(key) == false else { return false }
            throw SignInWithAppleStorageError.full(capacity: capacity)
        }
        let inserted = try await database.raw(
            """
            INSERT INTO \(ident: table) (entry_key, entry_value, expires_at)
            VALUES (\(bind: key), \(bind: Data(value)), \(bind: expiresAt.timeIntervalSince1970))
            ON CONFLICT (entry_key) DO NOTHING RETURNING entry_key
            """
        ).all()
        return !inserted.isEmpty
    }

    public func take(_ key: String) async throws -> StoredEntry? {
        struct Row: Decodable {
            var entry_value: Data
            var expires_at: Double
        }
        let row = try await database.raw("DELETE FROM \(ident: table) WHERE entry_key = \(bind: key) RETURNING entry_value, expires_at")
            .first(decoding: Row.self)
        return row.map { StoredEntry(value: Array($0.entry_value), expiresAt: Date(timeIntervalSince1970: $0.expires_at)) }
    }

    private func exists(_ key: String) async throws -> Bool {
        try await database.raw("SELECT 1 AS one FROM \(ident: table) WHERE entry_key = \(bind: key)").first() != nil
    }
}
