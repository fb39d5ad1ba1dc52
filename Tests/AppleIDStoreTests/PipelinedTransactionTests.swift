import AppleIDProvider
import Logging
import NIOPosix
import SQLKit
import SQLiteKit
import Synchronization
import Testing

@testable import AppleIDStore

/// An approval's statements may go to SQLite's writer together only because that connection takes
/// them in call order. A database that decides something about each statement first (a wrapper:
/// a gate, a counter, an injected fault) runs each in a task of its own, so there they go one by one.
@Suite("Pipelined transactions")
struct PipelinedTransactionTests {
    @Test("over a wrapped database an approval's statements run in order, BEGIN first, even when BEGIN is slow")
    func wrappedDatabaseRunsInOrder() async throws {
        try await withMemorySQLiteConnection { connection in
            let recorder = ArrivalRecorder(connection.sql())
            let store = SQLStore(database: recorder)
            try await store.migrate()
            try await store.save(Fixture.account())
            recorder.reset()
            try await store.save(TransactionFailureTests.approval)
            let tables = ["team_identities", "consents", "grants", "authorization_codes"].map { "INSERT INTO \"\($0)\"" }
            let arrived = recorder.arrived.map { sql in tables.first { sql.hasPrefix($0) } ?? sql }
            #expect(arrived == ["BEGIN"] + tables + ["COMMIT"])
            #expect(try await store.authorizationCode(hash: Fixture.code().codeHash) == Fixture.code())
        }
    }
}

/// Records the SQL of each statement as it reaches the database, after holding `BEGIN` back for a
/// hundred turns of the scheduler (as a busy gate or a slow log would).
final class ArrivalRecorder: SQLDatabaseWrapper, Sendable {
    let wrapped: any SQLDatabase
    private let statements = Mutex<[String]>([])

    init(_ database: any SQLDatabase) { wrapped = database }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        var serializer = SQLSerializer(database: wrapped)
        query.serialize(to: &serializer)
        if serializer.sql == "BEGIN" { for _ in 0..<100 { await Task.yield() } }
        statements.withLock { $0.append(serializer.sql) }
        try await wrapped.execute(sql: query, onRow)
    }

    var arrived: [String] { statements.withLock { $0 } }
    func reset() { statements.withLock { $0 = [] } }
}
