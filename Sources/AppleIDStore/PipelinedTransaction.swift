import NIOCore
import SQLKit

extension SQLConnectionSource {
    /// Runs `statements` in order as one transaction; nothing is kept when one fails. No statement
    /// depends on Swift code run after an earlier one, so a source may send them all at once
    /// (``GatedConnection`` does). Here, one after the other.
    func transaction(pipelining statements: [any SQLExpression]) async throws {
        try await transaction { db in try await db.run(oneByOne: statements) }
    }
}

extension GatedConnection {
    /// When the connection takes statements in call order (``GatedConnection/takesStatementsInOrder``),
    /// `BEGIN` and `statements` go to it together, before any comes back: SQLite's one thread runs them
    /// back to back while the gate is held, instead of waiting after each for the holder to run again.
    /// Only `COMMIT` or `ROLLBACK` waits for their answers. Otherwise, one by one.
    func transaction(pipelining statements: [any SQLExpression]) async throws {
        guard takesStatementsInOrder else { return try await transaction { db in try await db.run(oneByOne: statements) } }
        if let serial = raw as? SQLiteSerialConnection {
            return try await gate.withExclusive { try await serial.pipelinedTransaction(statements) }
        }
        try await withTaskExecutorPreference(executor) {
            try await gate.withExclusive { try await raw.pipelinedTransaction(statements) }
        }
    }
}

extension SQLDatabase {
    /// Each of `statements` in turn, each waited for.
    fileprivate func run(oneByOne statements: [any SQLExpression]) async throws {
        for statement in statements { try await execute(sql: statement) { _ in } }
    }

    /// Sends `BEGIN` and `statements` without waiting between them (each `execute` hands its statement
    /// to the connection's one thread before it returns, in call order), then `COMMIT` when every one
    /// succeeded, else `ROLLBACK` and the first error. The caller makes sure that nothing else runs on
    /// this connection meanwhile.
    ///
    /// A `BEGIN` that failed would leave the statements to run on their own; a deferred `BEGIN` fails
    /// only inside another transaction, which the caller's exclusive hold rules out (and there the
    /// `ROLLBACK` undoes them too).
    fileprivate func pipelinedTransaction(_ statements: [any SQLExpression]) async throws {
        let sent: [EventLoopFuture<Void>] = ([SQLRaw("BEGIN")] + statements).map { execute(sql: $0) { _ in } }
        var firstError: (any Error)?
        for answer in sent {
            do { try await answer.get() } catch { firstError = firstError ?? error }
        }
        do {
            if let firstError { throw firstError }
            try await raw("COMMIT").run()
        } catch {
            try? await raw("ROLLBACK").run()
            throw error
        }
    }
}

extension SQLiteSerialConnection {
    /// `BEGIN`, `statements` and `COMMIT` handed over together and answered once: the connection's
    /// thread runs them back to back and stops at the first failure, after which `ROLLBACK` undoes
    /// whatever ran (and fails harmlessly when `BEGIN` itself failed).
    fileprivate func pipelinedTransaction(_ statements: [any SQLExpression]) async throws {
        let all: [any SQLExpression] = [SQLRaw("BEGIN")] + statements + [SQLRaw("COMMIT")]
        do {
            try await withCheckedThrowingContinuation { (answer: CheckedContinuation<Void, any Error>) in
                handOver(all, onRows: all.map { _ in { _ in } }, answering: answer)
            }
        } catch {
            try? await execute(sql: SQLRaw("ROLLBACK")) { _ in }
            throw error
        }
    }
}
