import AppleIDProvider
import PostgresKit
import SQLKit

/// A leased PostgreSQL connection that refuses a statement once the connection has closed.
///
/// PostgresNIO 1.33 writes a statement to its channel without a promise: on a channel that has
/// already closed the write is dropped, and the statement waits for an answer that never comes. The
/// pool can still lease a connection that PostgreSQL has just ended (a restart), and a two-instance
/// run under load saw `/health/ready` and `/auth/token` hang that way for over 10 s. Asking the
/// channel first turns that into ``StoreUnavailableError``, which the pool reports as unavailable.
/// A close between the question and the write is still possible but needs the close to land in
/// those few instructions; the database's own `statement_timeout` cannot help there (the statement
/// never left).
///
/// With `preparedStatements`, a ``PreparedStatement`` runs prepared; without (in a transaction, or
/// with ``PostgresPoolSettings/preparesStatements`` off), as written.
struct LiveConnectionDatabase: SQLDatabaseWrapper {
    let connection: PostgresConnection
    let wrapped: any SQLDatabase
    let preparedStatements: PostgresPreparedStatements?

    init(_ connection: PostgresConnection, preparedStatements: PostgresPreparedStatements?) {
        self.connection = connection
        self.preparedStatements = preparedStatements
        wrapped = connection.sql(queryLogLevel: .trace)
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        guard !connection.isClosed else { throw StoreUnavailableError(reason: "the PostgreSQL connection has closed") }
        if let preparedStatements, let statement = query as? PreparedStatement {
            return try await preparedStatements.execute(statement, on: connection, database: wrapped, logger: connection.logger, onRow)
        }
        try await wrapped.execute(sql: query, onRow)
    }
}
