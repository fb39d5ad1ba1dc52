import Logging
import NIOCore
import SQLKit

/// One statement at a time for a store, in arrival order; a transaction holds the gate from `BEGIN`
/// to `COMMIT`.
///
/// The SQLite store shares one connection between all callers. Without the gate, another request's
/// statement could run between a transaction's `BEGIN` and `COMMIT` and silently become part of it.
actor StatementGate {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }

    /// Runs `body` while holding the gate.
    func withGate<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await acquire()
        do {
            let result = try await body()
            release()
            return result
        } catch {
            release()
            throw error
        }
    }
}

/// A database whose every statement passes through a ``StatementGate``.
struct GatedDatabase: SQLDatabase {
    let inner: any SQLDatabase
    let gate: StatementGate

    var logger: Logger { inner.logger }
    var eventLoop: any EventLoop { inner.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { inner.version }
    var dialect: any SQLDialect { inner.dialect }
    var queryLogLevel: Logger.Level? { inner.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await gate.withGate { try await inner.execute(sql: query, onRow) }
    }
}

extension SQLStore {
    /// Runs `body` as one transaction: committed when it returns, rolled back when it throws. No other
    /// statement of this store runs in between.
    func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await gate.withGate {
            try await raw.raw("BEGIN").run()
            do {
                let result = try await body(raw)
                try await raw.raw("COMMIT").run()
                return result
            } catch {
                try? await raw.raw("ROLLBACK").run()
                throw error
            }
        }
    }
}
