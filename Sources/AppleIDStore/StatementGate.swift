import Logging
import NIOCore
import SQLKit
import Synchronization

/// Keeps other statements out of a transaction on the shared connection.
///
/// The SQLite store shares one connection between all callers. Without the gate, another request's
/// statement could run between a transaction's `BEGIN` and `COMMIT` and silently become part of it.
/// Ordinary statements take shared access (no suspension while no transaction runs, so they still
/// queue up on the connection's thread); a transaction takes exclusive access, waiting for the
/// statements in flight, and holds back new ones until it ends.
///
/// Phase-fair: a statement that arrives while a transaction runs or waits queues behind it, and
/// when a transaction ends, every statement queued so far runs before the next transaction starts.
/// Neither side starves the other. (When waiting transactions always went first, a steady stream of
/// approvals held a single statement back for seconds: p99 4.9 s on `/auth/authorize` under load.)
final class StatementGate: Sendable {
    private struct State {
        var running = 0
        var exclusive = false
        var waitingShared: [CheckedContinuation<Void, Never>] = []
        var waitingExclusive: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// How many statements and transactions wait (for tests).
    var waiting: (shared: Int, exclusive: Int) { state.withLock { ($0.waitingShared.count, $0.waitingExclusive.count) } }

    /// How many statements hold shared access now (for tests).
    var sharedHolders: Int { state.withLock { $0.running } }

    func withShared<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await acquireShared()
        defer { releaseShared() }
        return try await body()
    }

    /// Shared access only while `handOver` runs: for a connection that takes statements in call order,
    /// whatever a transaction sends after it queues behind the statement handed over, so the statement
    /// needs no hold while it runs.
    func withShared<T>(handingOver handOver: () throws -> T) async rethrows -> T {
        await acquireShared()
        defer { releaseShared() }
        return try handOver()
    }

    /// Shared access while `handOver` gives statements to a connection that takes them in call order
    /// and promises to answer through the continuation; the gate is free again before the answer is
    /// awaited, and the caller resumes straight from whoever answers.
    func handingOver<T: Sendable>(_ handOver: (CheckedContinuation<T, any Error>) -> Void) async throws -> T {
        await acquireShared()
        return try await withCheckedThrowingContinuation { continuation in
            handOver(continuation)
            releaseShared()
        }
    }

    func withExclusive<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await acquireExclusive()
        defer { releaseExclusive() }
        return try await body()
    }

    private func acquireShared() async {
        let admitted = state.withLock { state -> Bool in
            guard !state.exclusive, state.waitingExclusive.isEmpty else { return false }
            state.running += 1
            return true
        }
        if admitted { return }
        await withCheckedContinuation { continuation in
            let admittedNow = state.withLock { state -> Bool in
                guard !state.exclusive, state.waitingExclusive.isEmpty else {
                    state.waitingShared.append(continuation)
                    return false
                }
                state.running += 1
                return true
            }
            if admittedNow { continuation.resume() }
        }
    }

    private func releaseShared() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.running -= 1
            guard state.running == 0, !state.waitingExclusive.isEmpty else { return nil }
            state.exclusive = true
            return state.waitingExclusive.removeFirst()
        }
        next?.resume()
    }

    private func acquireExclusive() async {
        await withCheckedContinuation { continuation in
            let admittedNow = state.withLock { state -> Bool in
                guard !state.exclusive, state.running == 0, state.waitingExclusive.isEmpty else {
                    state.waitingExclusive.append(continuation)
                    return false
                }
                state.exclusive = true
                return true
            }
            if admittedNow { continuation.resume() }
        }
    }

    private func releaseExclusive() {
        let (nextExclusive, shared) = state.withLock { state -> (CheckedContinuation<Void, Never>?, [CheckedContinuation<Void, Never>]) in
            // Statements that queued behind this transaction go before the next one (which then
            // waits for them in `releaseShared`); with none queued, the next transaction goes now.
            if state.waitingShared.isEmpty, !state.waitingExclusive.isEmpty {
                return (state.waitingExclusive.removeFirst(), [])
            }
            state.exclusive = false
            let shared = state.waitingShared
            state.waitingShared.removeAll()
            state.running += shared.count
            return (nil, shared)
        }
        nextExclusive?.resume()
        for continuation in shared { continuation.resume() }
    }
}

/// A database whose every statement passes through a ``StatementGate``.
///
/// When the connection takes statements in call order (SQLite's writer), a statement holds the gate
/// only while it is handed over: a transaction that takes the gate next sends its `BEGIN` behind it,
/// so the statement cannot run inside the transaction. The gate is then free at once, not when this
/// task runs again (in a cooperative pool that under load is busy signing id_tokens), and the task
/// needs no preference for the writer's event loop. A statement to the store's own connection
/// (``SQLiteSerialConnection``) costs two thread hand-offs: to the writer's thread, and its answer
/// back to the task's event loop; through sqlite-nio's, three (the answer goes by the writer's
/// event loop first) (issue 38). Otherwise the statement and its release of the gate run
/// on the connection's own executor (see ``GatedConnection``), so the gate is free as soon as the
/// statement is done.
struct GatedDatabase: SQLDatabaseWrapper {
    let inner: any SQLDatabase
    let gate: StatementGate
    let executor: EventLoopTaskExecutor?
    /// ``GatedConnection/takesStatementsInOrder``.
    let takesStatementsInOrder: Bool

    var wrapped: any SQLDatabase { inner }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        if let serial = inner as? SQLiteSerialConnection {
            // Handed over under the gate; the answer comes back on the caller's event loop.
            return try await gate.handingOver { answer in serial.handOver([query], onRows: [onRow], answering: answer) }
        }
        if takesStatementsInOrder {
            // The `EventLoopFuture` `execute` hands the statement over before it returns.
            let answer = await gate.withShared(handingOver: { inner.execute(sql: query, onRow) })
            return try await answer.get()
        }
        try await withTaskExecutorPreference(executor) {
            try await gate.withShared { try await inner.execute(sql: query, onRow) }
        }
    }
}

/// One shared connection: ordinary statements pass the gate with shared access, a transaction holds
/// it exclusively so that no other caller's statement runs between its `BEGIN` and `COMMIT`.
///
/// With an `executor` (the connection's event loop), whoever holds the gate resumes on that executor
/// after each statement: a transaction's `BEGIN`, statements and `COMMIT` follow one another without
/// waiting for a thread of the shared pool, which under load is busy with other requests' work.
struct GatedConnection: SQLConnectionSource {
    let raw: any SQLDatabase
    let gate = StatementGate()
    let executor: EventLoopTaskExecutor?
    let database: any SQLDatabase
    /// Whether `raw`'s `EventLoopFuture` `execute` hands each statement to the connection before it
    /// returns, in call order (SQLite's own `SQLDatabase` on a one-thread pool), so that a transaction's
    /// statements may be sent together. A ``SQLDatabaseWrapper`` runs each in a task of its own.
    let takesStatementsInOrder: Bool

    init(database: any SQLDatabase, executor: EventLoopTaskExecutor? = nil, takesStatementsInOrder: Bool = false) {
        self.raw = database
        self.executor = executor
        self.takesStatementsInOrder = takesStatementsInOrder
        self.database = GatedDatabase(inner: database, gate: gate, executor: executor, takesStatementsInOrder: takesStatementsInOrder)
    }

    func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await withTaskExecutorPreference(executor) {
            try await gate.withExclusive { try await raw.inTransaction(body) }
        }
    }
}

extension SQLDatabase {
    /// `BEGIN`, `body`, then `COMMIT`; `ROLLBACK` when `body` or the commit throws. The caller makes
    /// sure that nothing else runs on this connection meanwhile.
    func inTransaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await raw("BEGIN").run()
        do {
            let result = try await body(self)
            try await raw("COMMIT").run()
            return result
        } catch {
            try? await raw("ROLLBACK").run()
            throw error
        }
    }
}
