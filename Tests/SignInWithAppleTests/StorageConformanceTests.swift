import Foundation
import Hummingbird
import Logging
import NIOPosix
import PostgresKit
import SQLKit
import SQLiteKit
import SignInWithApple
import SignInWithAppleHummingbird
import SignInWithAppleSQL
import SignInWithAppleTesting
import Testing

@Suite("The kit's storages pass one conformance suite", .timeLimit(.minutes(5)))
struct StorageConformanceTests {
    @Test("memory: the checks, and a flood is refused without evicting anybody's entry")
    func memory() async throws {
        try await StorageConformance.check(MemorySignInWithAppleStorage())
        try await StorageConformance.checkBound(MemorySignInWithAppleStorage(capacity: 50), capacity: 50)
    }

    @Test("Hummingbird's memory persist driver")
    func persistDriver() async throws {
        try await StorageConformance.check(PersistSignInWithAppleStorage(driver: MemoryPersistDriver(), prefix: "siwa:"))
    }

    @Test("sql-kit on SQLite: the checks and the bound")
    func sqlite() async throws {
        let source = SQLiteConnectionSource(configuration: .init(storage: .memory), threadPool: .singleton)
        let connection = try await source.makeConnection(logger: Logger(label: "test"), on: MultiThreadedEventLoopGroup.singleton.any()).get()
        defer { try? connection.close().wait() }
        let storage = SQLSignInWithAppleStorage(database: connection.sql(), capacity: 40)
        try await storage.migrate()
        try await storage.migrate()  // idempotent
        try await StorageConformance.check(storage)
        let bounded = SQLSignInWithAppleStorage(database: connection.sql(), table: "bounded_entries", capacity: 30)
        try await bounded.migrate()
        try await StorageConformance.checkBound(bounded, capacity: 30)
    }

    @Test("sql-kit on PostgreSQL (SIWA_TEST_POSTGRES_URL)", .enabled(if: ProcessInfo.processInfo.environment["SIWA_TEST_POSTGRES_URL"] != nil))
    func postgres() async throws {
        let url = try #require(ProcessInfo.processInfo.environment["SIWA_TEST_POSTGRES_URL"])
        let configuration = try SQLPostgresConfiguration(url: url)
        let connection = try await PostgresConnection.connect(configuration: configuration.coreConfiguration, id: 1, logger: Logger(label: "test"))
        defer { try? connection.close().wait() }
        let table = "kit_entries_\(UInt32.random(in: 0...UInt32.max))"
        let storage = SQLSignInWithAppleStorage(database: connection.sql(), table: table, capacity: 40)
        try await storage.migrate()
        try await StorageConformance.check(storage)
        let bounded = SQLSignInWithAppleStorage(database: connection.sql(), table: table + "_bounded", capacity: 40)
        try await bounded.migrate()
        try await StorageConformance.checkBound(bounded, capacity: 40)
        for name in [table, table + "_bounded"] { try await connection.sql().raw("DROP TABLE \(ident: name)").run() }
    }
}
