import Logging
import NIOCore
import SQLKit
import Synchronization

/// SQLite in WAL mode with one writer and several readers. Every write and every transaction runs on
/// the writer connection behind a ``StatementGate`` (SQLite allows one writer at a time anyway); plain
/// `SELECT`s run on reader connections, which WAL lets read the last committed state while the writer
/// writes. An in-memory database exists per connection, so it has the writer only.
struct SQLiteConnections: SQLConnectionSource {
    let writer: GatedConnection
    let database: any SQLDatabase
    /// A file database's checkpoints, off the writer.
    let checkpointer: SQLiteWALCheckpointer?

    /// `writer` is a connection on a thread of its own (``SQLiteSerialConnection``, or sqlite-nio's on a
    /// one-thread pool): it takes statements in call order, so a transaction's may go to it together.
    init(writer: any SQLDatabase, readers: [any SQLDatabase], checkpointer: SQLiteWALCheckpointer? = nil) {
        self.checkpointer = checkpointer
        let gated = GatedConnection(database: writer, executor: EventLoopTaskExecutor(writer.eventLoop), takesStatementsInOrder: true)
        self.writer = gated
        self.database =
            readers.isEmpty ? gated.database : ReadRoutingDatabase(writer: gated.database, readers: readers, rotation: ReaderRotation())
    }

    func transaction<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await writer.transaction(body)
    }

    func transaction(pipelining statements: [any SQLExpression]) async throws {
        try await writer.transaction(pipelining: statements)
    }
}

/// Takes turns among the readers.
final class ReaderRotation: Sendable {
    private let counter = Atomic<Int>(0)

    func next(of count: Int) -> Int { counter.wrappingAdd(1, ordering: .relaxed).oldValue % count }
}

/// Sends `SELECT` statements to a reader and everything else to the writer.
struct ReadRoutingDatabase: SQLDatabaseWrapper {
    let writer: any SQLDatabase
    let readers: [any SQLDatabase]
    let rotation: ReaderRotation

    var wrapped: any SQLDatabase { writer }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        // Only the select builder's statements are known to read; raw SQL may write, so it goes to the writer.
        // The store marks its keyed lookups as statements to prepare: the mark does not make them writes.
        let statement = (query as? PreparedStatement)?.statement ?? query
        let target = statement is SQLSelect ? readers[rotation.next(of: readers.count)] : writer
        try await target.execute(sql: query, onRow)
    }
}
