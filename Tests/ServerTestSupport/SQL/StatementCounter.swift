import AppleIDStore
import SQLKit
import Synchronization

/// A SQL database that counts the statements it runs and the rows they return, so a test can show
/// that a page reads a bounded number of statements (no statement per row) and no more rows than it
/// shows. Transaction control (`BEGIN`, `COMMIT`, `ROLLBACK`) is not counted. `failing`, when set,
/// throws ``InjectedStatementFailure`` for each statement whose SQL text it matches.
package final class StatementCounter: SQLDatabaseWrapper, Sendable {
    package let wrapped: any SQLDatabase
    private let counts = Mutex((statements: 0, rows: 0))
    private let ran = Mutex<[String]>([])
    private let failing = Mutex<(@Sendable (String) -> Bool)?>(nil)

    package init(_ database: any SQLDatabase) { wrapped = database }

    package func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        var serializer = SQLSerializer(database: wrapped)
        query.serialize(to: &serializer)
        let sql = serializer.sql
        guard !["BEGIN", "COMMIT", "ROLLBACK"].contains(sql) else { return try await wrapped.execute(sql: query, onRow) }
        counts.withLock { $0.statements += 1 }
        ran.withLock { $0.append(sql) }
        if failing.withLock({ $0 })?(sql) == true { throw InjectedStatementFailure(sql: sql) }
        try await wrapped.execute(sql: query) { [self] row in
            counts.withLock { $0.rows += 1 }
            onRow(row)
        }
    }

    /// What ran since the last ``reset()``.
    package var statements: Int { counts.withLock { $0.statements } }
    package var rows: Int { counts.withLock { $0.rows } }

    /// How many of the statements since the last ``reset()`` read `table` (`FROM "table"`).
    package func statements(from table: String) -> Int { statements(containing: "FROM \"\(table)\"") }

    /// How many of the statements since the last ``reset()`` contain `text` in their SQL.
    package func statements(containing text: String) -> Int { ran.withLock { $0.filter { $0.contains(text) }.count } }

    /// Forgets what ran so far (the set-up).
    package func reset() {
        counts.withLock { $0 = (0, 0) }
        ran.withLock { $0 = [] }
    }

    /// From now on, statements whose SQL `matches` fail.
    package func fail(when matches: @escaping @Sendable (String) -> Bool) { failing.withLock { $0 = matches } }

    /// A migrated SQL store on a fresh in-memory SQLite database behind a counter, for `body`.
    package static func withSQLiteStore<T>(_ body: (SQLStore, StatementCounter) async throws -> T) async throws -> T {
        try await SQLiteTestStore.with(wrapping: StatementCounter.init, body)
    }
}

/// The failure a ``StatementCounter`` injects.
package struct InjectedStatementFailure: Error {
    package let sql: String
}
