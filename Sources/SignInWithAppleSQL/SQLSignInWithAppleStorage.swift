import Foundation
import SQLKit
import SignInWithApple

/// A ``SignInWithAppleStorage`` in a table of any sql-kit database that speaks `ON CONFLICT` and
/// `RETURNING` (SQLite 3.35+ and PostgreSQL): the app's own database, shared by all its instances.
///
/// Inserting is one `INSERT … ON CONFLICT`, taking one `DELETE … RETURNING`, so of concurrent
/// takes exactly one gets the entry. Bounded: at ``capacity`` live rows, new entries are refused
/// (``SignInWithAppleStorageError/full(capacity:)``) rather than evicting anybody's. An insert does
/// not count the table: each instance keeps an estimate (its last count, plus what it inserted and
/// took since) and counts again, after deleting the expired rows, only when the estimate reaches the
/// capacity. With several instances the bound is therefore per instance.
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
    /// Shared by copies of this value: what this process knows of the table's size.
    private let estimate = LiveEntryEstimate()

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
        var verdict = estimate.verdict(now: now, capacity: capacity)
        if verdict == .count { verdict = try await countLiveEntries(now: now) }
        if verdict == .full {
            // The key may be there already (a live duplicate answers false, as below).
            guard try await exists(key, now: now) == false else { return false }
            throw SignInWithAppleStorageError.full(capacity: capacity)
        }
        // An expired entry under the key is replaced; a live one is kept and the insert answers false.
        let inserted = try await database.raw(
            """
            INSERT INTO \(ident: table) (entry_key, entry_value, expires_at)
            VALUES (\(bind: key), \(bind: Data(value)), \(bind: expiresAt.timeIntervalSince1970))
            ON CONFLICT (entry_key) DO UPDATE SET entry_value = excluded.entry_value, expires_at = excluded.expires_at
            WHERE \(ident: table).expires_at <= \(bind: now.timeIntervalSince1970)
            RETURNING entry_key
            """
        ).all()
        if !inserted.isEmpty { estimate.inserted() }
        return !inserted.isEmpty
    }

    /// Deletes the expired entries and counts the live ones (through the expiry index).
    private func countLiveEntries(now: Date) async throws -> LiveEntryEstimate.Verdict {
        let nowSeconds = now.timeIntervalSince1970
        try await database.raw("DELETE FROM \(ident: table) WHERE expires_at <= \(bind: nowSeconds)").run()
        struct Count: Decodable {
            var live: Int
            var earliest: Double?
        }
        let count = try await database.raw("SELECT COUNT(*) AS live, MIN(expires_at) AS earliest FROM \(ident: table)").first(
            decoding: Count.self)
        return estimate.counted(
            count?.live ?? 0, earliestExpiry: count?.earliest.map { Date(timeIntervalSince1970: $0) }, now: now, capacity: capacity)
    }

    public func take(_ key: String) async throws -> StoredEntry? {
        struct Row: Decodable {
            var entry_value: Data
            var expires_at: Double
        }
        let row = try await database.raw("DELETE FROM \(ident: table) WHERE entry_key = \(bind: key) RETURNING entry_value, expires_at")
            .first(decoding: Row.self)
        if row != nil { estimate.took() }
        return row.map { StoredEntry(value: Array($0.entry_value), expiresAt: Date(timeIntervalSince1970: $0.expires_at)) }
    }

    private func exists(_ key: String, now: Date) async throws -> Bool {
        try await database.raw(
            "SELECT 1 AS one FROM \(ident: table) WHERE entry_key = \(bind: key) AND expires_at > \(bind: now.timeIntervalSince1970)"
        ).first() != nil
    }
}
