import AppleIDStore
import Logging
import NIOCore
import SQLKit
import Synchronization

/// A SQL database that remembers every statement it runs, so a test can ask the database afterwards how
/// it would execute each one (`EXPLAIN` with the same binds).
package final class QueryPlanRecorder: SQLDatabaseWrapper {
    /// How a database says how it would run a statement.
    package enum Explain: Sendable {
        /// `EXPLAIN QUERY PLAN`, one row per step in the column `detail`.
        case sqlite
        /// `EXPLAIN`, one row per line in the column `QUERY PLAN`.
        case postgres

        var prefix: String { self == .sqlite ? "EXPLAIN QUERY PLAN " : "EXPLAIN " }
        var column: String { self == .sqlite ? "detail" : "QUERY PLAN" }
    }

    package let wrapped: any SQLDatabase
    package let explain: Explain
    private let statements = Mutex<[any SQLExpression]>([])

    package init(_ database: any SQLDatabase, explain: Explain = .sqlite) {
        wrapped = database
        self.explain = explain
    }

    /// A recorder that asks SQLite (``SQLiteTestStore``'s wrapper).
    package static func sqlite(_ database: any SQLDatabase) -> QueryPlanRecorder { QueryPlanRecorder(database) }

    package func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        statements.withLock { $0.append(query) }
        try await wrapped.execute(sql: query, onRow)
    }

    /// Forgets what ran so far (the set-up).
    package func reset() { statements.withLock { $0.removeAll() } }

    /// Each statement run since the last ``reset()``, as SQL text, with the lines of its plan.
    package func plans() async throws -> [(sql: String, plan: [String])] {
        var result: [(sql: String, plan: [String])] = []
        for statement in statements.withLock({ $0 }) {
            var serializer = SQLSerializer(database: wrapped)
            statement.serialize(to: &serializer)
            guard !Self.transactionControl.contains(serializer.sql) else { continue }
            let lines = Mutex<[String]>([])
            let column = explain.column
            try await wrapped.execute(sql: ExplainStatement(prefix: explain.prefix, statement: statement)) { row in
                let detail = (try? row.decode(column: column, as: String.self)) ?? "(no detail)"
                lines.withLock { $0.append(detail) }
            }
            result.append((serializer.sql, lines.withLock { $0 }))
        }
        return result
    }

    private static let transactionControl: Set<String> = ["BEGIN", "COMMIT", "ROLLBACK"]
}

/// `EXPLAIN` (or SQLite's `EXPLAIN QUERY PLAN`) followed by the statement, binds and all.
private struct ExplainStatement: SQLExpression {
    let prefix: String
    let statement: any SQLExpression

    func serialize(to serializer: inout SQLSerializer) {
        serializer.write(prefix)
        statement.serialize(to: &serializer)
    }
}
