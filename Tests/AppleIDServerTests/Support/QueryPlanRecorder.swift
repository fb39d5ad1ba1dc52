import AppleIDStore
import Logging
import NIOCore
import SQLKit
import Synchronization

/// A SQLite database that remembers every statement it runs, so a test can ask SQLite afterwards how
/// it would execute each one (`EXPLAIN QUERY PLAN` with the same binds).
final class QueryPlanRecorder: SQLDatabaseWrapper {
    let wrapped: any SQLDatabase
    private let statements = Mutex<[any SQLExpression]>([])

    init(_ database: any SQLDatabase) { wrapped = database }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        statements.withLock { $0.append(query) }
        try await wrapped.execute(sql: query, onRow)
    }

    /// Forgets what ran so far (the set-up).
    func reset() { statements.withLock { $0.removeAll() } }

    /// Each statement run since the last ``reset()``, as SQL text, with the lines of its plan.
    func plans() async throws -> [(sql: String, plan: [String])] {
        var result: [(sql: String, plan: [String])] = []
        for statement in statements.withLock({ $0 }) {
            var serializer = SQLSerializer(database: wrapped)
            statement.serialize(to: &serializer)
            guard !Self.transactionControl.contains(serializer.sql) else { continue }
            let lines = Mutex<[String]>([])
            try await wrapped.execute(sql: ExplainQueryPlan(statement: statement)) { row in
                let detail = (try? row.decode(column: "detail", as: String.self)) ?? "(no detail)"
                lines.withLock { $0.append(detail) }
            }
            result.append((serializer.sql, lines.withLock { $0 }))
        }
        return result
    }

    private static let transactionControl: Set<String> = ["BEGIN", "COMMIT", "ROLLBACK"]
}

/// `EXPLAIN QUERY PLAN` followed by the statement, binds and all.
private struct ExplainQueryPlan: SQLExpression {
    let statement: any SQLExpression

    func serialize(to serializer: inout SQLSerializer) {
        serializer.write("EXPLAIN QUERY PLAN ")
        statement.serialize(to: &serializer)
    }
}
