import NIOCore
import SQLKit
import Synchronization

extension SQLConnectionSource {
    /// Runs `statements` in order as one transaction and answers each one's rows; nothing is kept
    /// when one fails. A later statement sees an earlier one only through SQL, never through Swift
    /// code between them, so a source may send them all at once (``GatedConnection`` does). Here,
    /// one after the other.
    func transaction(pipelining statements: [any SQLExpression]) async throws -> [[any SQLRow]] {
        try await transaction { db in
            var answers: [[any SQLRow]] = []
            for statement in statements {
                let rows = CollectedRows()
                try await db.execute(sql: statement) { rows.append($0) }
                answers.append(rows.all)
            }
            return answers
        }
    }
}

extension GatedConnection {
    /// `BEGIN` and `statements` go to the connection together, before any comes back: SQLite's one
    /// thread runs them back to back while the gate is held, instead of waiting after each for the
    /// holder to be scheduled again (under load, a few hundred microseconds each, during which no
    /// other request can write). Only `COMMIT` or `ROLLBACK` waits for their answers.
    func transaction(pipelining statements: [any SQLExpression]) async throws -> [[any SQLRow]] {
        try await withTaskExecutorPreference(executor) {
            try await gate.withExclusive { try await raw.pipelinedTransaction(statements) }
        }
    }
}

extension SQLDatabase {
    /// Sends `BEGIN` and `statements` without waiting between them (each `execute` hands its statement
    /// to the connection's thread before it returns, in call order), then `COMMIT` when every one
    /// succeeded, else `ROLLBACK` and the first error. The caller makes sure that nothing else runs on
    /// this connection meanwhile.
    ///
    /// A `BEGIN` that failed would leave the statements to run on their own; a deferred `BEGIN` fails
    /// only inside another transaction, which the caller's exclusive hold rules out (and there the
    /// `ROLLBACK` undoes them too).
    fileprivate func pipelinedTransaction(_ statements: [any SQLExpression]) async throws -> [[any SQLRow]] {
        let begin: EventLoopFuture<Void> = execute(sql: SQLRaw("BEGIN")) { _ in }
        let collected = statements.map { _ in CollectedRows() }
        let answers = zip(statements, collected).map { statement, rows -> EventLoopFuture<Void> in
            execute(sql: statement) { rows.append($0) }
        }
        var firstError: (any Error)?
        for answer in [begin] + answers {
            do { try await answer.get() } catch { firstError = firstError ?? error }
        }
        do {
            if let firstError { throw firstError }
            try await raw("COMMIT").run()
        } catch {
            try? await raw("ROLLBACK").run()
            throw error
        }
        return collected.map(\.all)
    }
}

/// The rows of one statement, as the connection hands them over.
private final class CollectedRows: Sendable {
    private let rows = Mutex<[any SQLRow]>([])

    func append(_ row: any SQLRow) { rows.withLock { $0.append(row) } }
    var all: [any SQLRow] { rows.withLock { $0 } }
}
