import AppleIDProvider
import Logging
import NIOPosix
import SQLKit
import SQLiteKit
import Testing

@testable import AppleIDStore

/// SQLite's code redemption waits for the writer once: the `UPDATE` and the read of the code's grant
/// are handed to the writer together (issue 38). The read went to a reader, a second round trip to
/// another thread on every token request.
@Suite("SQLite's redemption is one hand-over to the writer")
struct RedemptionHandOverTests {
    @Test("the redemption and its grant's read go to the writer together, none to a reader")
    func redemptionReadsItsGrantOnTheWriter() async throws {
        try await TemporaryDirectory.with { directory in
            let path = directory.appendingPathComponent("store.sqlite").path
            let pools = [NIOThreadPool(numberOfThreads: 1), NIOThreadPool(numberOfThreads: 1)]
            for pool in pools { pool.start() }
            let logger = Logger(label: "test")
            let writerConnection = try await SQLiteConnection.open(
                storage: .file(path: path), threadPool: pools[0], logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())
            _ = try await writerConnection.query("PRAGMA journal_mode = WAL")
            let readerConnection = try await SQLiteConnection.open(
                storage: .file(path: path), threadPool: pools[1], logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())
            let writer = CountingDatabase(writerConnection.sql())
            let reader = CountingDatabase(readerConnection.sql())
            let store = SQLStore(connections: SQLiteConnections(writer: writer, readers: [reader]), sealer: nil)
            do {
                try await store.migrate()
                let grant = Fixture.grant(id: "grant-1")
                try await store.save(grant)
                try await store.save(Fixture.code())
                let (writes, reads) = (writer.count, reader.count)

                let redeemed = try await store.redeemCode(
                    hash: "code-hash-1", binding: StoreConformanceTests.binding, at: Fixture.date(2), validAt: Fixture.date(1),
                    issuing: StoreConformanceTests.newTokens())

                #expect(redeemed?.grant == grant)
                #expect(reader.count - reads == 0, "the grant was read from a reader: a second round trip")
                #expect(writer.count - writes == 2)
            } catch {
                try? await readerConnection.close()
                try? await writerConnection.close()
                for pool in pools { try? await pool.shutdownGracefully() }
                throw error
            }
            try await readerConnection.close()
            try await writerConnection.close()
            for pool in pools { try await pool.shutdownGracefully() }
        }
    }
}
