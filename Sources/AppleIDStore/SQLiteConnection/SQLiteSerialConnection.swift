import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import SQLiteNIO
import Synchronization

/// One SQLite connection on a thread of its own, which runs the statements handed to it one after
/// another, in the order they were handed over, each with a kept prepared statement
/// (``SQLiteHandle``). It replaces sqlite-nio's connection in the SQLite store (issue 38): the same
/// vendored SQLite and the same values in and out, but no statement is prepared twice, and an async
/// caller is resumed on its own event loop (``handOver(_:onRows:completionOnCallersLoop:)``) instead of
/// through the connection's event loop first.
final class SQLiteSerialConnection: SQLDatabase, Sendable {
    /// A statement as SQLite runs it: its text, its values, and where its rows go.
    struct Statement: Sendable {
        let sql: String
        let binds: [SQLiteData]
        let onRow: @Sendable (any SQLRow) -> Void
    }

    let logger: Logger
    let eventLoop: any EventLoop
    let queryLogLevel: Logger.Level?
    let dialect: any SQLDialect = SQLiteDialect()
    let version: (any SQLDatabaseReportedVersion)? = nil
    private let thread: NIOThreadPool
    /// Work items handed to `thread` so far: the caller's waits (for tests).
    private let workItems = Atomic<Int>(0)
    /// Touched only on `thread`.
    private let handle: SQLiteHandleBox

    private init(handle: SQLiteHandleBox, thread: NIOThreadPool, eventLoop: any EventLoop, logger: Logger, queryLogLevel: Logger.Level?) {
        self.handle = handle
        self.thread = thread
        self.eventLoop = eventLoop
        self.logger = logger
        self.queryLogLevel = queryLogLevel
    }

    /// Opens `path` (`":memory:"` for a private in-memory database) on a new thread of its own; the
    /// futures of ``execute(sql:_:)`` complete on `eventLoop`.
    static func open(path: String, eventLoop: any EventLoop, logger: Logger) async throws -> SQLiteSerialConnection {
        let thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
        do {
            let handle = try await thread.runIfActive { try SQLiteHandleBox(SQLiteHandle(path: path)) }
            return SQLiteSerialConnection(handle: handle, thread: thread, eventLoop: eventLoop, logger: logger, queryLogLevel: .trace)
        } catch {
            try? await thread.shutdownGracefully()
            throw error
        }
    }

    /// Hands `statements` to the connection's thread before it returns; they run there back to back,
    /// and `completion` is called there with the first failure, or success once all ran. A statement
    /// after a failed one does not run.
    func handOver(
        _ statements: [any SQLExpression], onRows: [@Sendable (any SQLRow) -> Void], completion: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        let prepared: [Statement]
        do {
            prepared = try zip(statements, onRows).map { try statement($0, onRow: $1) }
        } catch {
            return completion(.failure(error))
        }
        let handle = handle
        workItems.add(1, ordering: .relaxed)
        thread.submit { state in
            guard case .active = state else {
                return completion(.failure(SQLiteStatementError(code: 21, message: "the connection's thread has stopped")))
            }
            do {
                for statement in prepared {
                    try handle.handle.run(statement.sql, binds: statement.binds, onRow: statement.onRow)
                }
                completion(.success(()))
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// ``handOver(_:onRows:completion:)``, with `completion` called on the event loop the caller runs on
    /// when it runs on one (``siwa serve`` runs its tasks on NIO's loops): a task resumed there goes on
    /// where its HTTP connection lives, and its response needs no further hop. Else on the
    /// connection's thread.
    func handOver(
        _ statements: [any SQLExpression], onRows: [@Sendable (any SQLRow) -> Void],
        completionOnCallersLoop completion: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        guard let home = MultiThreadedEventLoopGroup.currentEventLoop else { return handOver(statements, onRows: onRows, completion: completion) }
        handOver(statements, onRows: onRows, completion: { result in home.execute { completion(result) } })
    }

    /// ``handOver(_:onRows:completionOnCallersLoop:)`` answering a continuation.
    func handOver(_ statements: [any SQLExpression], onRows: [@Sendable (any SQLRow) -> Void], answering answer: CheckedContinuation<Void, any Error>)
    {
        handOver(statements, onRows: onRows, completionOnCallersLoop: { answer.resume(with: $0) })
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        let promise = eventLoop.makePromise(of: Void.self)
        handOver([query], onRows: [onRow], completion: { promise.completeWith($0) })
        return promise.futureResult
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            handOver([query], onRows: [onRow], answering: continuation)
        }
    }

    /// Runs `work` with the handle as one work item on the connection's thread, after everything handed
    /// over before it; the caller resumes on its own event loop when it runs on one, as with
    /// ``handOver(_:onRows:completionOnCallersLoop:)``.
    func withHandle<T: Sendable>(_ work: @escaping @Sendable (SQLiteHandle) throws -> T) async throws -> T {
        let handle = handle
        let home = MultiThreadedEventLoopGroup.currentEventLoop
        workItems.add(1, ordering: .relaxed)
        return try await withCheckedThrowingContinuation { (answer: CheckedContinuation<T, any Error>) in
            thread.submit { state in
                let result: Result<T, any Error>
                if case .active = state {
                    result = Result { try work(handle.handle) }
                } else {
                    result = .failure(SQLiteStatementError(code: 21, message: "the connection's thread has stopped"))
                }
                guard let home else { return answer.resume(with: result) }
                home.execute { answer.resume(with: result) }
            }
        }
    }

    /// Hands `work` to the connection's thread, after everything handed over before it, and returns;
    /// nobody waits for it. It does not run once the thread has stopped.
    func submit(_ work: @escaping @Sendable (SQLiteHandle) -> Void) {
        let handle = handle
        thread.submit { state in
            guard case .active = state else { return }
            work(handle.handle)
        }
    }

    /// How many work items were handed to the connection's thread so far (for tests).
    var handedOver: Int { workItems.load(ordering: .relaxed) }

    /// How many statements the connection has prepared so far, and how many it keeps (for tests).
    func preparedStatements() async throws -> (prepared: Int, kept: Int) {
        let handle = handle
        return try await thread.runIfActive { (handle.handle.preparations, handle.handle.kept) }
    }

    /// Closes the handle on its thread, then stops the thread.
    func close() async throws {
        let handle = handle
        try await thread.runIfActive { handle.handle.close() }
        try await thread.shutdownGracefully()
    }

    /// `query` serialized, its values encoded, and logged as a statement handed over is.
    func statement(_ query: any SQLExpression, onRow: @escaping @Sendable (any SQLRow) -> Void = { _ in }) throws -> Statement {
        let (sql, binds) = serialize(query)
        if let queryLogLevel { logger.log(level: queryLogLevel, "Executing query", metadata: ["sql": .string(sql)]) }
        let encoder = SQLiteDataEncoder()
        return Statement(sql: sql, binds: try binds.map { try encoder.encode($0) }, onRow: onRow)
    }
}

/// The handle, carried between the connection and its thread; used on that thread only.
/// `@unchecked` because `SQLiteHandle` is mutable and unlocked: every access runs as a work item of the
/// connection's one-thread `NIOThreadPool`, which serializes them (opening, each statement, closing).
private struct SQLiteHandleBox: @unchecked Sendable {  // safe: every access runs on the connection's one thread (above)
    let handle: SQLiteHandle

    init(_ handle: SQLiteHandle) { self.handle = handle }
}
