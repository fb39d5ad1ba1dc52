import SQLKit

/// A statement that runs often with the same text: on PostgreSQL it is prepared once per connection
/// (see ``PostgresPreparedStatements``) instead of being parsed and planned on every call. It reads
/// exactly as the statement it wraps, so SQLite and every other database run it unchanged.
struct PreparedStatement: SQLExpression {
    let statement: any SQLExpression

    func serialize(to serializer: inout SQLSerializer) {
        statement.serialize(to: &serializer)
    }
}

/// Hands every statement on as a ``PreparedStatement``: the store's lookups by key and the token
/// and authorize paths run here, so that they are marked without their SQL being written twice.
struct PreparingDatabase: SQLDatabaseWrapper {
    let wrapped: any SQLDatabase

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await wrapped.execute(sql: query is PreparedStatement ? query : PreparedStatement(statement: query), onRow)
    }
}
