import SQLKit

extension SQLConnectionSource {
    /// One transaction that reads, decides, then writes: `check`'s rows go to `decide`; when it names
    /// a refusal nothing is written and the refusal is returned; else `writes` run in order and commit
    /// (`nil`). Nothing is kept when one fails. Here, a statement at a time in ``transaction(_:)``;
    /// ``SQLiteConnections`` sends the whole to the writer's thread at once.
    func transaction<Refusal: Sendable>(
        checking check: (any SQLExpression)?, decide: @escaping @Sendable ([any SQLRow]) throws -> Refusal?, writing writes: [any SQLExpression]
    ) async throws -> Refusal? {
        try await transaction { db in try await db.checkedTransactionOneByOne(check: check, decide: decide, writes: writes) }
    }
}

extension SQLiteConnections {
    /// On the writer: see ``GatedConnection/transaction(checking:decide:writing:)``.
    func transaction<Refusal: Sendable>(
        checking check: (any SQLExpression)?, decide: @escaping @Sendable ([any SQLRow]) throws -> Refusal?, writing writes: [any SQLExpression]
    ) async throws -> Refusal? {
        try await writer.transaction(checking: check, decide: decide, writing: writes)
    }
}

extension GatedConnection {
    /// The store's own SQLite connection (``SQLiteSerialConnection``) runs the whole as one work item
    /// under the gate's exclusive hold: one wait for the caller instead of one per statement.
    /// Otherwise, a statement at a time.
    func transaction<Refusal: Sendable>(
        checking check: (any SQLExpression)?, decide: @escaping @Sendable ([any SQLRow]) throws -> Refusal?, writing writes: [any SQLExpression]
    ) async throws -> Refusal? {
        if takesStatementsInOrder, let serial = raw as? SQLiteSerialConnection {
            return try await gate.withExclusive { try await serial.checkedTransaction(check: check, decide: decide, writes: writes) }
        }
        return try await transaction { db in try await db.checkedTransactionOneByOne(check: check, decide: decide, writes: writes) }
    }
}

extension SQLDatabase {
    fileprivate func checkedTransactionOneByOne<Refusal: Sendable>(
        check: (any SQLExpression)?, decide: @Sendable ([any SQLRow]) throws -> Refusal?, writes: [any SQLExpression]
    ) async throws -> Refusal? {
        var rows: [any SQLRow] = []
        if let check { rows = try await inSequenceOneByOne([check])[0] }
        if let refusal = try decide(rows) { return refusal }
        for write in writes { try await execute(sql: write) { _ in } }
        return nil
    }
}
