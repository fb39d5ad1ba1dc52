import AppleIDProvider
import SQLKit

/// The seeded state as a copy of each table, `seed_snapshot_<table>`, in the same database. The
/// tables are listed from the database's catalogue, not from a list here, so a table a later
/// migration adds is part of a snapshot without an edit. A restore is one transaction of a `DELETE`
/// and an `INSERT … SELECT` per table: a few milliseconds on the small tables of a test server.
extension SQLStore: SeedSnapshotStore {
    static let snapshotPrefix = "seed_snapshot_"
    /// Left alone by a reset: the schema's own record, and the signing keys relying parties cache.
    static let tablesKeptByReset: Set<String> = ["schema_migrations", "signing_keys"]
    /// Tables other tables' foreign keys point at: inserted first, emptied last (PostgreSQL checks
    /// each statement; SQLite's checks are deferred to the commit).
    static let referencedTables = ["relay_messages"]

    public func saveSeedSnapshot() async throws {
        try await transaction { db in
            for table in try await Self.snapshotTables(on: db) {
                try await db.raw("DROP TABLE IF EXISTS \(ident: table.snapshot)").run()
            }
            for table in try await Self.liveTables(on: db) {
                try await db.raw("CREATE TABLE \(ident: Self.snapshotPrefix + table) AS SELECT * FROM \(ident: table)").run()
            }
        }
    }

    public func hasSeedSnapshot() async throws -> Bool { try await !Self.snapshotTables(on: db).isEmpty }

    public func restoreSeedSnapshot() async throws -> Bool {
        try await transaction { db in
            let saved = try await Self.snapshotTables(on: db)
            guard !saved.isEmpty else { return false }
            if db.dialect.name == "sqlite" { try await db.raw("PRAGMA defer_foreign_keys = ON").run() }
            let copies = Dictionary(saved.map { ($0.live, $0.snapshot) }, uniquingKeysWith: { first, _ in first })
            let order = try await Self.liveTables(on: db).sorted { Self.insertRank($0) < Self.insertRank($1) }
            for table in order.reversed() {
                try await db.raw("DELETE FROM \(ident: table)").run()
            }
            for table in order {
                // A table without a copy was added after the snapshot: it stays empty.
                guard let copy = copies[table] else { continue }
                try await db.raw("INSERT INTO \(ident: table) SELECT * FROM \(ident: copy)").run()
            }
            return true
        }
    }

    /// Removes the seeded state: a migration changed the tables' shape, so the copies no longer fit.
    func dropSeedSnapshot() async throws {
        try await transaction { db in
            for table in try await Self.snapshotTables(on: db) {
                try await db.raw("DROP TABLE IF EXISTS \(ident: table.snapshot)").run()
            }
        }
    }

    private static func insertRank(_ table: String) -> Int { referencedTables.firstIndex(of: table) ?? referencedTables.count }

    /// Every table of the schema, the snapshot copies included.
    private static func allTables(on db: any SQLDatabase) async throws -> [String] {
        let query: SQLQueryString =
            db.dialect.name == "postgresql"
            ? "SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()"
            : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        return try await db.raw(query).all().map { try $0.decode(column: "name", as: String.self) }.sorted()
    }

    /// The tables a reset restores.
    private static func liveTables(on db: any SQLDatabase) async throws -> [String] {
        try await allTables(on: db).filter { !$0.hasPrefix(snapshotPrefix) && !tablesKeptByReset.contains($0) }
    }

    /// The snapshot copies and the table each copies.
    private static func snapshotTables(on db: any SQLDatabase) async throws -> [(live: String, snapshot: String)] {
        try await allTables(on: db).filter { $0.hasPrefix(snapshotPrefix) }.map { (String($0.dropFirst(snapshotPrefix.count)), $0) }
    }
}
