import AppleIDProvider
import Logging
import PostgresKit
import Synchronization

/// PostgreSQL through PostgresNIO's connection pool (`PostgresClient`): each statement runs on any
/// free connection, each transaction on one leased connection. Connections that the database closes
/// (a restart) leave the pool and new ones are opened on demand, so the store recovers by itself.
/// A lease waits at most ``PostgresPoolSettings/leaseTimeout``; connection failures and that
/// timeout become ``StoreUnavailableError``. A ``PreparedStatement`` run on its own is prepared on
/// its connection (``PostgresPreparedStatements``); in a transaction it runs as written.
struct PostgresPool: SQLConnectionSource {
    let client: PostgresClient
    let settings: PostgresPoolSettings
    let usage: PoolUsage
    let logger: Logger
    /// `nil` when ``PostgresPoolSettings/preparesStatements`` is off.
    let preparedStatements: PostgresPreparedStatements?

    init(client: PostgresClient, settings: PostgresPoolSettings, usage: PoolUsage, logger: Logger) {
        self.client = client
        self.settings = settings
        self.usage = usage
        self.logger = logger
        preparedStatements = settings.preparesStatements ? PostgresPreparedStatements() : nil
    }

    var database: any SQLDatabase { PooledPostgresDatabase(pool: self) }

    func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        // `withConnection` returns only after its tasks end, so `body` does not outlive this call.
        try await withoutActuallyEscaping(body) { body in
            try await withConnection(preparing: false) { connection in try await connection.inTransaction(body) }
        }
    }

    /// Runs `body` on a leased connection, waiting at most the lease timeout for one; with
    /// `preparing`, ``PreparedStatement``s run prepared there.
    func withConnection<T: Sendable>(preparing: Bool, _ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let lease = LeaseState()
        usage.startedWaiting()
        do {
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask {
                    try await client.withConnection { connection in
                        try lease.markLeased(usage: usage)
                        defer { usage.released() }
                        return try await body(LiveConnectionDatabase(connection, preparedStatements: preparing ? preparedStatements : nil))
                    }
                }
                group.addTask {
                    try? await Task.sleep(for: settings.leaseTimeout)
                    if lease.markTimedOut(usage: usage) {
                        throw StoreUnavailableError(reason: "no database connection within \(settings.leaseTimeout)")
                    }
                    return nil
                }
                while let finished = try await group.next() {
                    if let value = finished {
                        group.cancelAll()
                        return value
                    }
                }
                preconditionFailure("the statement's task ends with a value or an error")
            }
        } catch {
            // Without a connection nothing ran: whatever failed was the pool's or the network's.
            if !lease.endWaiting(usage: usage) || Self.isConnectionFailure(error) {
                usage.recordUnavailable()
                if let unavailable = error as? StoreUnavailableError { throw unavailable }
                logger.warning("PostgreSQL unavailable", metadata: ["error": "\(String(reflecting: type(of: error)))"])
                throw StoreUnavailableError(reason: "PostgreSQL connection failed (\(Self.describe(error)))")
            }
            throw error
        }
    }

    /// Failures of the connection rather than of the statement: the connection closed or broke, or
    /// PostgreSQL answered with class 08 (connection exception) or 57 (operator intervention, as in a
    /// shutdown or restart).
    static func isConnectionFailure(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return error is StoreUnavailableError }
        guard error.code == .server else { return true }
        let state = error.serverInfo?[.sqlState] ?? ""
        return state.hasPrefix("08") || state.hasPrefix("57")
    }

    /// What broke, without SQL or bound values: the PostgresNIO error code, or the error's type.
    private static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            return error.code == .server ? "server error \(error.serverInfo?[.sqlState] ?? "?")" : "\(error.code)"
        }
        return String(reflecting: type(of: error))
    }
}

/// Whether a statement got its connection, or gave up waiting first; exactly one of the two wins.
private final class LeaseState: Sendable {
    private enum Phase { case waiting, leased, gaveUp }
    private let phase = Mutex(Phase.waiting)

    /// Called with the connection in hand; throws when the wait already timed out (the connection
    /// goes straight back).
    func markLeased(usage: PoolUsage) throws {
        let leased = phase.withLock { phase -> Bool in
            guard phase == .waiting else { return false }
            phase = .leased
            return true
        }
        guard leased else { throw CancellationError() }
        usage.leased()
    }

    /// `true` when this call ended the wait (no connection came in time).
    func markTimedOut(usage: PoolUsage) -> Bool {
        let gaveUp = phase.withLock { phase -> Bool in
            guard phase == .waiting else { return false }
            phase = .gaveUp
            return true
        }
        if gaveUp { usage.gaveUpWaiting() }
        return gaveUp
    }

    /// Ends the wait if it still runs; `true` when a connection was leased.
    func endWaiting(usage: PoolUsage) -> Bool {
        _ = markTimedOut(usage: usage)
        return phase.withLock { $0 == .leased }
    }
}

/// Runs every statement on a connection leased from the pool for that statement alone.
struct PooledPostgresDatabase: SQLDatabase {
    let pool: PostgresPool

    var logger: Logger { pool.logger }
    var eventLoop: any EventLoop { PostgresClient.defaultEventLoopGroup.any() }
    var version: (any SQLDatabaseReportedVersion)? { nil }
    var dialect: any SQLDialect { PostgresDialect() }
    var queryLogLevel: Logger.Level? { .trace }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await pool.withConnection(preparing: true) { database in try await database.execute(sql: query, onRow) }
    }
}
