import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit
import Testing

@testable import AppleIDStore

/// What only the SQLite store has: a file that outlives the process, migrations, pragmas.
@Suite("SQLite store")
struct SQLiteStoreTests {
    @Test func fileStoreKeepsDataAcrossCloseAndReopen() async throws {
        try await TemporaryDirectory.with { directory in
            let path = directory.appendingPathComponent("data/store.sqlite").path
            let account = Fixture.account()
            let code = Fixture.code()

            let (first, closeFirst) = try await SQLStore.sqlite(path: path, logger: testLogger)
            try await first.save(account)
            try await first.save(Fixture.grant(id: code.grantID))
            try await first.save(code)
            let binding = StoreConformanceTests.binding
            #expect(
                try await first.redeemCode(
                    hash: code.codeHash, binding: binding, at: Fixture.date(1), validAt: Fixture.date(1),
                    issuing: StoreConformanceTests.newTokens()) != nil)
            try await closeFirst()
            try await closeFirst()  // idempotent

            let (second, closeSecond) = try await SQLStore.sqlite(path: path, logger: testLogger)
            do {
                #expect(try await second.account(appleID: account.appleID) == account)
                var consumed = code
                consumed.consumedAt = Fixture.date(1)
                #expect(try await second.authorizationCode(hash: code.codeHash) == consumed)
                #expect(try await second.token(hash: "access-1") != nil)
                // Reopening re-ran `migrate()` without re-recording or failing.
                #expect(try await second.appliedMigrations() == SQLStore.migrations.map(\.version))
                try await second.migrate()
                #expect(try await second.appliedMigrations() == SQLStore.migrations.map(\.version))
            } catch {
                try await closeSecond()
                throw error
            }
            try await closeSecond()
        }
    }

    @Test func fileStoreUsesWALAndTheConfiguredPragmas() async throws {
        try await TemporaryDirectory.with { directory in
            let path = directory.appendingPathComponent("store.sqlite").path
            let (store, shutdown) = try await SQLStore.sqlite(path: path, logger: testLogger)
            do {
                #expect(try await pragma("journal_mode", on: store) == "wal")
                #expect(try await pragma("synchronous", on: store) == "1")  // NORMAL
                #expect(try await pragma("foreign_keys", on: store) == "1")
                #expect(try await pragma("busy_timeout", on: store) == "5000")
            } catch {
                try await shutdown()
                throw error
            }
            try await shutdown()
        }
    }

    @Test func inMemoryStoresAreSeparate() async throws {
        let (a, closeA) = try await SQLStore.sqliteInMemory(logger: testLogger)
        let (b, closeB) = try await SQLStore.sqliteInMemory(logger: testLogger)
        try await a.save(DeveloperTeam(id: "TEAM123456", name: "A"))
        let inA = try await a.team("TEAM123456")
        let inB = try await b.team("TEAM123456")
        try await closeA()
        try await closeB()
        #expect(inA?.name == "A")
        #expect(inB == nil)
    }

    private func pragma(_ name: String, on store: SQLStore) async throws -> String? {
        let row = try await store.db.raw(SQLQueryString("PRAGMA \(unsafeRaw: name)")).first()
        guard let row, let column = row.allColumns.first else { return nil }
        if let text = try? row.decode(column: column, as: String.self) { return text.lowercased() }
        return try row.decode(column: column, as: Int.self).description
    }
}
