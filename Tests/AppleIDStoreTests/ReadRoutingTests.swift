import SQLKit
import SQLiteKit
import Testing

@testable import AppleIDStore

/// SQLite's readers take the plain `SELECT`s, whether or not the store marked them as statements to
/// prepare: the token path's keyed reads (`grant(id:)`, the registry's lookups) go through the
/// preparing wrapper, and a reader must still answer them, not the one writer.
@Suite("SQLite reads are routed to the readers")
struct ReadRoutingTests {
    @Test("a SELECT goes to a reader as written and as a prepared statement; raw SQL and writes go to the writer")
    func selectsGoToReaders() async throws {
        try await withMemorySQLiteConnection { connection in
            let writer = CountingDatabase(connection.sql())
            let reader = CountingDatabase(connection.sql())
            let routing = ReadRoutingDatabase(writer: writer, readers: [reader], rotation: ReaderRotation())
            try await routing.raw("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)").run()
            try await routing.insert(into: "t").columns("id", "v").values(SQLBind(1), SQLBind("a")).run()
            #expect(writer.count == 2)

            _ = try await routing.select().column("v").from("t").where("id", .equal, SQLBind(1)).all()
            #expect(reader.count == 1)
            let prepared = PreparingDatabase(wrapped: routing)
            let row = try await prepared.select().column("v").from("t").where("id", .equal, SQLBind(1)).first()
            #expect(try row?.decode(column: "v", as: String.self) == "a")
            #expect(reader.count == 2, "a prepared SELECT was sent to the writer")
            try await prepared.update("t").set("v", to: SQLBind("b")).where("id", .equal, SQLBind(1)).run()
            try await prepared.raw("SELECT v FROM t").run()
            #expect(writer.count == 4)
            #expect(reader.count == 2)
        }
    }
}
