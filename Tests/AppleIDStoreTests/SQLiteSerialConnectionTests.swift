import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import Testing

@testable import AppleIDStore

/// The SQLite store's own connection (issue 38): each statement text is prepared once, rows read as
/// sqlite-nio's read, statements run in the order they were handed over, and a failure leaves the
/// connection usable.
@Suite("SQLite's serial connection")
struct SQLiteSerialConnectionTests {
    private static func withConnection(_ body: (SQLiteSerialConnection) async throws -> Void) async throws {
        let connection = try await SQLiteSerialConnection.open(
            path: SQLStore.sqliteMemoryPath, eventLoop: MultiThreadedEventLoopGroup.singleton.any(), logger: Logger(label: "test"))
        do {
            try await body(connection)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }

    @Test("a statement run again with other values is not prepared again")
    func preparesEachTextOnce() async throws {
        try await Self.withConnection { connection in
            var answers: [Int] = []
            for value in [1, 2, 3] {
                let row = try await connection.raw("SELECT \(bind: value) + 1 AS answer").first()
                answers.append(try #require(row).decode(column: "answer", as: Int.self))
            }
            #expect(answers == [2, 3, 4])
            let statements = try await connection.preparedStatements()
            #expect(statements.prepared == 1)
            #expect(statements.kept == 1)
        }
    }

    @Test("rows decode as sqlite-nio's rows decode, value for value")
    func decodesAsSQLiteNIO() async throws {
        try await TemporaryDirectory.with { directory in
            let path = directory.appendingPathComponent("values.sqlite").path
            let ours = try await SQLiteSerialConnection.open(
                path: path, eventLoop: MultiThreadedEventLoopGroup.singleton.any(), logger: Logger(label: "test"))
            let pool = NIOThreadPool(numberOfThreads: 1)
            pool.start()
            let theirs = try await SQLiteConnection.open(
                storage: .file(path: path), threadPool: pool, logger: Logger(label: "test"), on: MultiThreadedEventLoopGroup.singleton.any())
            let sample = Sample(
                number: -42, ratio: 2.5, name: "Zoë", bytes: Data([0, 1, 255]), when: Date(timeIntervalSince1970: 1_700_000_000.25),
                id: UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!, flag: true, missing: nil)
            try await ours.raw("CREATE TABLE samples (number, ratio, name, bytes, \"when\", id, flag, missing)").run()
            try await ours.insert(into: "samples").model(sample).run()
            try await ours.insert(into: "samples").model(sample).run()

            let ourRows = try await ours.select().column("*").from("samples").all(decoding: Sample.self)
            let theirRows = try await theirs.sql().select().column("*").from("samples").all(decoding: Sample.self)

            #expect(ourRows == [sample, sample])
            #expect(theirRows == ourRows)
            try await theirs.close()
            try await pool.shutdownGracefully()
            try await ours.close()
        }
    }

    @Test("statements handed over together run in order, and none after the first that fails")
    func handedOverInOrder() async throws {
        try await Self.withConnection { connection in
            try await connection.raw("CREATE TABLE log (entry TEXT NOT NULL)").run()
            let statements: [any SQLExpression] = [
                SQLRaw("INSERT INTO log VALUES ('first')"), SQLRaw("INSERT INTO log VALUES (NULL)"), SQLRaw("INSERT INTO log VALUES ('third')"),
            ]
            await #expect(throws: SQLiteStatementError.self) {
                try await withCheckedThrowingContinuation { (answer: CheckedContinuation<Void, any Error>) in
                    connection.handOver(statements, onRows: statements.map { _ in { _ in } }, answering: answer)
                }
            }
            let entries = try await connection.raw("SELECT entry FROM log").all(decodingColumn: "entry", as: String.self)
            #expect(entries == ["first"])
        }
    }

    @Test("an answer comes back on the event loop that handed the statement over, or else from the connection's thread")
    func answersOnTheCallersLoop() async throws {
        try await Self.withConnection { connection in
            let loop = MultiThreadedEventLoopGroup.singleton.next()
            let fromLoop = try await withCheckedThrowingContinuation { (answered: CheckedContinuation<Bool, any Error>) in
                loop.execute {
                    connection.handOver(
                        [SQLRaw("SELECT 1")], onRows: [{ _ in }],
                        completionOnCallersLoop: { result in
                            answered.resume(with: result.map { loop.inEventLoop })
                        })
                }
            }
            let fromElsewhere = try await withCheckedThrowingContinuation { (answered: CheckedContinuation<Bool, any Error>) in
                connection.handOver(
                    [SQLRaw("SELECT 1")], onRows: [{ _ in }],
                    completionOnCallersLoop: { result in
                        answered.resume(with: result.map { MultiThreadedEventLoopGroup.currentEventLoop == nil })
                    })
            }
            #expect(fromLoop, "the answer did not come back on the caller's loop")
            #expect(fromElsewhere, "with no caller's loop, the answer should come from the connection's own thread")
        }
    }

    @Test("a statement that failed runs again once its cause is gone")
    func failureLeavesTheConnectionUsable() async throws {
        try await Self.withConnection { connection in
            try await connection.raw("CREATE TABLE keys (id TEXT PRIMARY KEY)").run()
            try await connection.raw("INSERT INTO keys VALUES (\(bind: "a"))").run()
            await #expect(throws: SQLiteStatementError.self) { try await connection.raw("INSERT INTO keys VALUES (\(bind: "a"))").run() }
            try await connection.raw("INSERT INTO keys VALUES (\(bind: "b"))").run()
            let ids = try await connection.raw("SELECT id FROM keys ORDER BY id").all(decodingColumn: "id", as: String.self)
            #expect(ids == ["a", "b"])
        }
    }

    @Test("a kept SELECT * sees a column added after it was prepared")
    func keptStatementFollowsTheSchema() async throws {
        try await Self.withConnection { connection in
            try await connection.raw("CREATE TABLE rows (a INTEGER)").run()
            try await connection.raw("INSERT INTO rows VALUES (1)").run()
            let before = try #require(try await connection.raw("SELECT * FROM rows").first())
            try await connection.raw("ALTER TABLE rows ADD COLUMN b INTEGER NOT NULL DEFAULT 7").run()
            let after = try #require(try await connection.raw("SELECT * FROM rows").first())
            #expect(before.allColumns == ["a"])
            #expect(after.allColumns == ["a", "b"])
            #expect(try after.decode(column: "b", as: Int.self) == 7)
        }
    }

    @Test("at most the cache's limit of statements is kept, and the ones let go still run")
    func cacheIsBounded() async throws {
        try await Self.withConnection { connection in
            let texts = SQLiteHandle.cacheLimit + 10
            for number in 0..<texts {
                let row = try await connection.raw(SQLQueryString("SELECT \(unsafeRaw: String(number)) AS n")).first()
                #expect(try #require(row).decode(column: "n", as: Int.self) == number)
            }
            let again = try await connection.raw(SQLQueryString("SELECT 0 AS n")).first()
            #expect(try #require(again).decode(column: "n", as: Int.self) == 0)
            let statements = try await connection.preparedStatements()
            #expect(statements.kept == SQLiteHandle.cacheLimit)
            #expect(statements.prepared == texts + 1)
        }
    }

    @Test("the store's token redemption prepares nothing after the first")
    func storeRedemptionReusesStatements() async throws {
        try await TemporaryDirectory.with { directory in
            let (store, shutdown) = try await SQLStore.sqlite(
                path: directory.appendingPathComponent("store.sqlite").path, logger: Logger(label: "test"))
            do {
                let writer = try #require((store.connections as? SQLiteConnections)?.writer.raw as? SQLiteSerialConnection)
                try await store.save(Fixture.grant(id: "grant-1"))
                try await store.save(Fixture.code(hash: "code-hash-1"))
                try await store.save(Fixture.code(hash: "code-hash-2"))
                _ = try await store.redeemCode(
                    hash: "code-hash-1", binding: StoreConformanceTests.binding, at: Fixture.date(2), validAt: Fixture.date(1),
                    issuing: StoreConformanceTests.newTokens())
                let afterFirst = try await writer.preparedStatements().prepared

                let second = try await store.redeemCode(
                    hash: "code-hash-2", binding: StoreConformanceTests.binding, at: Fixture.date(2), validAt: Fixture.date(1),
                    issuing: StoreConformanceTests.newTokens("2"))

                #expect(second?.grant.id == "grant-1")
                #expect(try await writer.preparedStatements().prepared == afterFirst)
            } catch {
                try? await shutdown()
                throw error
            }
            try await shutdown()
        }
    }
}

private struct Sample: Codable, Equatable {
    var number: Int
    var ratio: Double
    var name: String
    var bytes: Data
    var when: Date
    var id: UUID
    var flag: Bool
    var missing: String?
}
