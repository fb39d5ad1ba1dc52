import Logging
import PostgresKit
import Synchronization

/// The pool's named prepared statements: each ``PreparedStatement`` is prepared once per connection
/// (the protocol's `Parse` with a name), then run by that name, so PostgreSQL parses and plans it
/// once per connection instead of on every call. Under the token load, parsing and planning took
/// more of the machine than executing (Benchmarks/README.md).
///
/// PostgresNIO keeps which statements each connection has prepared, and forgets them with the
/// connection. This registry names the statements: one name per SQL text and bound types (the
/// types PostgresNIO declares for the values, as it does unprepared; a `NULL` leaves its type to
/// PostgreSQL), so the same SQL with other types is another statement and a value is never read as
/// another type. At most ``limit`` statements get a name; others run unprepared.
///
/// A statement that no longer fits the schema (another instance migrated it: "cached plan must not
/// change result type", `0A000`) or that the session lost (`26000`) gets a new name, so that every
/// connection prepares it again, and runs unprepared that once: nothing ran when either fails. Any
/// other error of PostgreSQL also renames it (PostgresNIO would answer a failed preparation's error
/// for ever on that connection) and reaches the caller. Only single statements are prepared: in a
/// transaction a failed statement would end the transaction.
final class PostgresPreparedStatements: Sendable {
    let limit: Int
    private let registry = Mutex(Registry())

    /// Each statement's name, and the number of the last name given.
    private struct Registry {
        var names: [String: String] = [:]
        var lastNumber = 0

        mutating func newName() -> String {
            lastNumber += 1
            return "siwa_\(lastNumber)"
        }
    }

    init(limit: Int = 256) {
        self.limit = limit
    }

    /// How many statements have a name (for tests).
    var namedCount: Int { registry.withLock { $0.names.count } }

    /// Runs `statement` on `connection` (whose SQLKit database is `database`), prepared when its
    /// values allow it.
    func execute(
        _ statement: PreparedStatement, on connection: PostgresConnection, database: any SQLDatabase, logger: Logger,
        _ onRow: @escaping @Sendable (any SQLRow) -> Void
    ) async throws {
        var serializer = SQLSerializer(database: database)
        statement.serialize(to: &serializer)
        guard let (bindings, types) = try Self.bindings(serializer.binds) else {
            return try await database.execute(sql: statement.statement, onRow)
        }
        let key = types + " " + serializer.sql
        guard let name = name(for: key) else { return try await database.execute(sql: statement.statement, onRow) }
        do {
            try await RunTimeStatement.$text.withValue(RunTimeStatement.Text(name: name, sql: serializer.sql)) {
                for try await row in try await connection.execute(RunTimeStatement(bindings: bindings), logger: logger) {
                    onRow(row.sql())
                }
            }
        } catch let error as PSQLError where error.code == .server {
            rename(key, from: name)
            guard Self.isStale(error) else { throw error }
            logger.debug("a prepared statement went stale; it is prepared again", metadata: ["statement": "\(name)"])
            try await database.execute(sql: statement.statement, onRow)
        }
    }

    /// The statement's name, given on its first call; `nil` past the limit.
    private func name(for key: String) -> String? {
        registry.withLock { registry in
            if let name = registry.names[key] { return name }
            guard registry.names.count < limit else { return nil }
            let name = registry.newName()
            registry.names[key] = name
            return name
        }
    }

    /// Gives the statement a new name (unless another call already did).
    private func rename(_ key: String, from name: String) {
        registry.withLock { registry in
            if registry.names[key] == name { registry.names[key] = registry.newName() }
        }
    }

    /// The values bound as PostgresKit binds them unprepared, and their types' names; `nil` when a
    /// value is encoded through `Codable` (PostgresKit's own encoder, which it does not expose), so
    /// the statement runs unprepared.
    static func bindings(_ values: [any Encodable & Sendable]) throws -> (PostgresBindings, String)? {
        var bindings = PostgresBindings(capacity: values.count)
        var types: [String] = []
        for value in values {
            if let value = value as? any PostgresThrowingDynamicTypeEncodable {
                try bindings.append(value, context: .default)
                types.append(value.psqlType.knownSQLName ?? "\(value.psqlType.rawValue)")
            } else if Self.isNil(value) {
                bindings.appendNull()
                types.append("unknown")
            } else {
                return nil
            }
        }
        return (bindings, types.joined(separator: ","))
    }

    private static func isNil(_ value: Any) -> Bool {
        if case Optional<Any>.none = value { return true }
        return false
    }

    /// The statement no longer exists on the connection (26000), or no longer fits the schema it was
    /// planned for (0A000, "cached plan must not change result type"). Both fail before it runs.
    static func isStale(_ error: PSQLError) -> Bool {
        ["26000", "0A000"].contains(error.serverInfo?[.sqlState] ?? "")
    }
}

/// PostgresNIO 1.33 prepares statements through a type whose name and SQL are static: written for
/// SQL fixed at compile time. The store's SQL is built by SQLKit at run time, so this one type
/// stands for every statement and reads its name and SQL from a task-local value, bound around the
/// call. PostgresNIO reads both in the calling task: when it sends the statement, and again for an
/// error's message.
private struct RunTimeStatement: PostgresPreparedStatement {
    struct Text: Sendable {
        var name: String
        var sql: String
    }

    @TaskLocal static var text = Text(name: "", sql: "")
    static var name: String { text.name }
    static var sql: String { text.sql }

    let bindings: PostgresBindings

    func makeBindings() -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}
