import NIOCore
import SQLKit
import Synchronization

@testable import AppleIDStore

/// Counts the statements handed to one connection, and hands them on in the order they came (its
/// `EventLoopFuture` `execute` passes each on before it returns, as SQLite's own connection does).
final class CountingDatabase: SQLDatabaseWrapper, Sendable {
    let wrapped: any SQLDatabase
    private let handed = Mutex(0)

    init(_ database: any SQLDatabase) { wrapped = database }

    /// How many statements it has been handed.
    var count: Int { handed.withLock { $0 } }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        handed.withLock { $0 += 1 }
        return wrapped.execute(sql: query, onRow)
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await execute(sql: query, onRow).get()
    }
}
