import AppleIDProvider
import Foundation
import SQLKit

/// The SQL ``ProviderStore``, written against sql-kit's `SQLDatabase` so that it runs on SQLite
/// today and on PostgreSQL later without a rewrite.
///
/// Portability rules the extensions follow:
/// - queries are built with SQLKit's builders (the dialect quotes identifiers and spells binds);
/// - columns are `TEXT`, `INTEGER`, `BOOLEAN` and `DOUBLE PRECISION`; dates are `Double` seconds
///   since 1970; nested values (`[Scope]`, return URLs, quirks, the validated request) are JSON text;
/// - upserts use `INSERT ... ON CONFLICT (...) DO UPDATE SET col = excluded.col` and atomic state
///   changes use `UPDATE ... WHERE <precondition> RETURNING ...`, both shared by SQLite ≥ 3.35 and
///   PostgreSQL.
///
/// Most operations whose atomicity matters are a single statement, guarded by a unique constraint or a
/// `WHERE` precondition. Operations that write more than one row run in ``transaction(_:)``, on one
/// connection of the store's ``SQLConnectionSource``: SQLite's single connection behind a
/// ``StatementGate``, or a leased connection of the PostgreSQL pool.
///
/// Call ``migrate()`` before use (``sqlite(path:logger:)`` does).
public final class SQLStore: Sendable {
    /// Single statements run here.
    let db: any SQLDatabase
    /// Single statements of the hot paths (the lookups by key, the authorize, token and refresh
    /// paths) run here: on PostgreSQL each is prepared once per connection.
    let prepared: any SQLDatabase
    /// Where statements and transactions run.
    let connections: any SQLConnectionSource
    /// Seals the signing keys' private halves; `nil` stores them as they are.
    let sealer: SecretSealer?

    /// Wraps one database connection, shared by every caller through a ``StatementGate``. The schema
    /// is not touched until ``migrate()``.
    public convenience init(database: any SQLDatabase, sealer: SecretSealer? = nil) {
        self.init(connections: GatedConnection(database: database), sealer: sealer)
    }

    init(connections: any SQLConnectionSource, sealer: SecretSealer?) {
        self.connections = connections
        self.db = connections.database
        self.prepared = PreparingDatabase(wrapped: connections.database)
        self.sealer = sealer
    }

    /// Runs `body` as one transaction on one connection: committed when it returns, rolled back when
    /// it throws, so a failure in the middle leaves nothing half-written.
    func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await connections.transaction(body)
    }

    /// Encodes row structs for `INSERT`: `nil` becomes `NULL` (instead of the column being left out),
    /// so that an upsert overwrites a stored value with `NULL`.
    static var rowEncoder: SQLQueryEncoder { SQLQueryEncoder(nilEncodingStrategy: .asNil) }

    /// `INSERT` the row, or on a conflict over `keys` overwrite every column with the new values.
    func upsert(_ row: some Encodable & Sendable, into table: String, key keys: [String]) async throws {
        try await Self.upsert(row, into: table, key: keys, on: db)
    }

    /// Inserts `row`, or replaces the row with the same `keys`, on `db` (a transaction's connection).
    static func upsert(_ row: some Encodable & Sendable, into table: String, key keys: [String], on db: any SQLDatabase) async throws {
        try await db.execute(sql: try upsertStatement(row, into: table, key: keys, on: db)) { _ in }
    }

    /// The statement of ``upsert(_:into:key:on:)``, to run or to embed in another.
    static func upsertStatement(
        _ row: some Encodable & Sendable, into table: String, key keys: [String], on db: any SQLDatabase
    ) throws -> SQLInsert {
        try db.insert(into: table)
            .model(row, with: rowEncoder)
            .onConflict(with: keys) { try $0.set(excludedContentOf: row, with: rowEncoder) }
            .insert
    }

    /// The single row of `table` whose `column` equals `value`, decoded as `Row` (prepared).
    func row<Row: Decodable>(
        _ type: Row.Type, from table: String, where column: String, equals value: String
    ) async throws -> Row? {
        try await Self.row(type, from: table, where: column, equals: value, on: prepared)
    }

    /// ``row(_:from:where:equals:)`` on `db` (a transaction's connection).
    static func row<Row: Decodable>(
        _ type: Row.Type, from table: String, where column: String, equals value: String, on db: any SQLDatabase
    ) async throws -> Row? {
        try await db.select().column("*").from(table)
            .where(column, .equal, value)
            .limit(1)
            .first(decoding: Row.self)
    }

    /// Deletes the rows of `table` whose `column` equals `value`.
    func delete(from table: String, where column: String, equals value: String) async throws {
        try await db.delete(from: table).where(column, .equal, value).run()
    }
}

// MARK: - Column encodings

extension Date {
    /// The column value of a date: seconds since 1970 as a `Double` (sub-microsecond precision for
    /// present-day dates).
    var sqlSeconds: Double { timeIntervalSince1970 }

    init(sqlSeconds: Double) {
        self.init(timeIntervalSince1970: sqlSeconds)
    }
}

/// JSON text columns for nested values.
enum JSONColumn {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(text.utf8))
    }
}

/// A stored value that no longer maps onto the domain type (for example an unknown enum case).
public struct StoreDecodingError: Error, CustomStringConvertible {
    public let table: String
    public let column: String
    public let value: String

    public var description: String { "cannot decode \(table).\(column) value \(value)" }
}

extension RawRepresentable {
    /// Maps a stored raw value back to the enum, or throws ``StoreDecodingError``.
    static func decoded(_ raw: RawValue, table: String, column: String) throws -> Self {
        guard let value = Self(rawValue: raw) else {
            throw StoreDecodingError(table: table, column: column, value: "\(raw)")
        }
        return value
    }
}
