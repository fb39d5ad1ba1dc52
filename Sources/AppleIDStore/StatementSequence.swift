import NIOCore
import SQLKit
import Synchronization

extension SQLConnectionSource {
    /// Runs `statements` one after another, each on its own (no transaction), and returns the rows of
    /// each, in order; a later statement sees what an earlier one wrote. Here, one by one on
    /// ``database``. ``SQLiteConnections`` sends them to the writer together.
    func inSequence(_ statements: [any SQLExpression]) async throws -> [[any SQLRow]] {
        try await database.inSequenceOneByOne(statements)
    }
}

extension SQLiteConnections {
    /// On the writer, which takes statements in call order: see ``GatedConnection/inSequence(_:)``.
    func inSequence(_ statements: [any SQLExpression]) async throws -> [[any SQLRow]] {
        try await writer.inSequence(statements)
    }
}

extension GatedConnection {
    /// When the connection takes statements in call order (``takesStatementsInOrder``), `statements`
    /// are handed over together, under one shared hold of the gate (so no transaction's `BEGIN` gets
    /// between them), and their answers are awaited as one: the connection's thread runs them back to
    /// back, and the caller waits once instead of once per statement (issue 38: a code redemption and
    /// the read of its grant cost one round trip to the writer, not one to the writer and one to a
    /// reader). The store's own connection (``SQLiteSerialConnection``) runs them as one work item and
    /// answers once, stopping at the first failure, as one by one does. Otherwise, one by one.
    func inSequence(_ statements: [any SQLExpression]) async throws -> [[any SQLRow]] {
        guard takesStatementsInOrder, !statements.isEmpty else { return try await database.inSequenceOneByOne(statements) }
        let collectors = statements.map { _ in RowCollector() }
        if let serial = raw as? SQLiteSerialConnection {
            try await gate.handingOver { answer in serial.handOver(statements, onRows: collectors.map { $0.add }, answering: answer) }
            return collectors.map(\.rows)
        }
        let sent = await gate.withShared(handingOver: {
            zip(statements, collectors).map { statement, collector in raw.execute(sql: statement, collector.add) }
        })
        let answers = try await EventLoopFuture.whenAllComplete(sent, on: sent[0].eventLoop).get()
        for answer in answers { try answer.get() }
        return collectors.map(\.rows)
    }
}

extension SQLDatabase {
    /// Each of `statements` in turn, each waited for, with its rows.
    func inSequenceOneByOne(_ statements: [any SQLExpression]) async throws -> [[any SQLRow]] {
        var rows: [[any SQLRow]] = []
        for statement in statements {
            let collector = RowCollector()
            try await execute(sql: statement, collector.add)
            rows.append(collector.rows)
        }
        return rows
    }
}

/// The rows of one statement, added on the connection's thread and read once its answer has come.
private final class RowCollector: Sendable {
    private let collected = Mutex<[any SQLRow]>([])

    @Sendable func add(_ row: any SQLRow) { collected.withLock { $0.append(row) } }

    var rows: [any SQLRow] { collected.withLock { $0 } }
}
