import SQLKit

/// Where a ``SQLStore`` runs its statements: SQLite's gated connection or PostgreSQL's pool.
protocol SQLConnectionSource: Sendable {
    /// Runs each statement on its own (for a pool: on any free connection).
    var database: any SQLDatabase { get }
    /// Runs `body` as one transaction on one connection that nothing else uses meanwhile.
    func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// Runs `statements` in order as one transaction (see the default, `PipelinedTransaction.swift`).
    func transaction(pipelining statements: [any SQLExpression]) async throws
    /// Reads `check`, asks `decide`, then writes `writes` or nothing, as one transaction (see the
    /// default, `CheckedTransaction.swift`).
    func transaction<Refusal: Sendable>(
        checking check: (any SQLExpression)?, decide: @escaping @Sendable ([any SQLRow]) throws -> Refusal?, writing writes: [any SQLExpression]
    ) async throws -> Refusal?
    /// Runs `statements` one after another, each on its own, and returns the rows of each (see the
    /// default, `StatementSequence.swift`).
    func inSequence(_ statements: [any SQLExpression]) async throws -> [[any SQLRow]]
}
