import Dispatch
import Foundation
import Logging
import SQLKit
import Testing

@testable import AppleIDStore

/// A file database's write-ahead log is checkpointed on a connection of its own, never inside a
/// commit (issue 38): SQLite's automatic checkpoint would copy the log into the database file and
/// sync it in the commit that takes the log over 1,000 pages, while every write behind it waits.
@Suite("SQLite's checkpoints run off the writer")
struct SQLiteWALCheckpointerTests {
    /// A store opened as `siwa serve` opens it, its writer and its checkpointer, and the log's path.
    static func withStore(_ body: (SQLiteSerialConnection, SQLiteWALCheckpointer, String) async throws -> Void) async throws {
        try await TemporaryDirectory.with { directory in
            let path = directory.appendingPathComponent("store.sqlite").path
            let (store, shutdown) = try await SQLStore.sqlite(path: path, logger: Logger(label: "test"))
            do {
                let connections = try #require(store.connections as? SQLiteConnections)
                let writer = try #require(connections.writer.raw as? SQLiteSerialConnection)
                try await body(writer, try #require(connections.checkpointer), path + "-wal")
            } catch {
                try? await shutdown()
                throw error
            }
            try await shutdown()
        }
    }

    /// Commits rows of 16 KB (4 pages and more each) until the log holds at least `pages` pages.
    static func write(_ writer: SQLiteSerialConnection, untilLogPages pages: Int32, checkpointer: SQLiteWALCheckpointer) async throws -> Int {
        try await writer.raw("CREATE TABLE IF NOT EXISTS filler (body BLOB NOT NULL)").run()
        var rows = 0
        while checkpointer.progress.lastLogPages < pages {
            try await writer.raw("INSERT INTO filler (body) VALUES (randomblob(16384))").run()
            rows += 1
            #expect(rows < 5_000, "the log stopped growing")
            if rows >= 5_000 { break }
        }
        return rows
    }

    static func fileSize(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    @Test("while the checkpointer is held, commits go on and the log grows past SQLite's threshold; then one checkpoint takes it all")
    func commitsDoNotCheckpoint() async throws {
        try await Self.withStore { writer, checkpointer, wal in
            let held = DispatchSemaphore(value: 0)
            checkpointer.checkpointingConnection.submit { _ in held.wait() }
            let before = checkpointer.progress.checkpoints
            _ = try await Self.write(writer, untilLogPages: 3 * SQLiteWALCheckpointer.threshold, checkpointer: checkpointer)
            // SQLite's own checkpoint in the commits would have started the log over at about 1,000
            // pages (4 MB): the file is reused, never longer than the longest log.
            #expect(try Self.fileSize(wal) > 3 * Int(SQLiteWALCheckpointer.threshold) * 4096)
            #expect(checkpointer.progress.checkpoints == before, "no checkpoint ran while held")

            held.signal()
            // A work item handed over now runs after the checkpoint asked for while held.
            try await checkpointer.checkpointingConnection.withHandle { _ in }
            #expect(checkpointer.progress.checkpoints == before + 1, "one checkpoint, asked for once")
            // The whole log is in the database file now, so the next commit starts the log over.
            try await writer.raw("INSERT INTO filler (body) VALUES (x'00')").run()
            #expect(checkpointer.progress.lastLogPages < 10)
        }
    }

    @Test("the checkpointer checkpoints again each time the log refills past the threshold, and every committed row is there after a reopen")
    func checkpointsKeepUp() async throws {
        try await TemporaryDirectory.with { directory in
            let path = directory.appendingPathComponent("store.sqlite").path
            var written = 0
            do {
                let (store, shutdown) = try await SQLStore.sqlite(path: path, logger: Logger(label: "test"))
                let connections = try #require(store.connections as? SQLiteConnections)
                let writer = try #require(connections.writer.raw as? SQLiteSerialConnection)
                let checkpointer = try #require(connections.checkpointer)
                written = try await Self.write(writer, untilLogPages: SQLiteWALCheckpointer.threshold, checkpointer: checkpointer)
                try await checkpointer.checkpointingConnection.withHandle { _ in }
                #expect(checkpointer.progress.checkpoints >= 1)
                for _ in 0..<300 { try await writer.raw("INSERT INTO filler (body) VALUES (randomblob(16384))").run() }
                written += 300
                try await checkpointer.checkpointingConnection.withHandle { _ in }
                #expect(checkpointer.progress.checkpoints >= 2)
                // Each complete checkpoint let the next commit start the log over.
                #expect(checkpointer.progress.lastLogPages < 2 * SQLiteWALCheckpointer.threshold)
                try await shutdown()
            }
            let (reopened, shutdown) = try await SQLStore.sqlite(path: path, logger: Logger(label: "test"))
            let count = try await reopened.connections.database.raw("SELECT COUNT(*) AS n FROM filler").first()?.decode(column: "n", as: Int.self)
            try await shutdown()
            #expect(count == written)
        }
    }

    @Test("in-commit (SQLite's own way, for comparison): no checkpointer, and the commits keep the log near 1,000 pages")
    func inCommitCheckpoints() async throws {
        try await TemporaryDirectory.with { directory in
            let path = directory.appendingPathComponent("store.sqlite").path
            let (store, shutdown) = try await SQLStore.sqlite(path: path, logger: Logger(label: "test"), checkpoints: .inCommit)
            do {
                let connections = try #require(store.connections as? SQLiteConnections)
                #expect(connections.checkpointer == nil)
                let writer = try #require(connections.writer.raw as? SQLiteSerialConnection)
                try await writer.raw("CREATE TABLE filler (body BLOB NOT NULL)").run()
                // 750 rows of 16 KB: 3,000 pages and more, three times SQLite's threshold.
                for _ in 0..<750 { try await writer.raw("INSERT INTO filler (body) VALUES (randomblob(16384))").run() }
                #expect(try Self.fileSize(path + "-wal") < 2 * Int(SQLiteWALCheckpointer.threshold) * 4096)
            } catch {
                try? await shutdown()
                throw error
            }
            try await shutdown()
        }
    }
}
