import Logging
import NIOCore
import SQLKit

/// A database that decides something about each statement (a gate, a router, an injected fault) and
/// hands it on: it describes itself as the database it wraps, and implements only the async `execute`.
public protocol SQLDatabaseWrapper: SQLDatabase {
    /// The database whose logger, event loop, dialect and version this one reports.
    var wrapped: any SQLDatabase { get }
}

extension SQLDatabaseWrapper {
    public var logger: Logger { wrapped.logger }
    public var eventLoop: any EventLoop { wrapped.eventLoop }
    public var version: (any SQLDatabaseReportedVersion)? { wrapped.version }
    public var dialect: any SQLDialect { wrapped.dialect }
    public var queryLogLevel: Logger.Level? { wrapped.queryLogLevel }

    public func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }
}
