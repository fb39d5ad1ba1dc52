import Foundation
import SQLKit
import Testing

@testable import AppleIDStore

extension SQLiteStoreTests {
    /// Branches add versions independently (16 here, 15 on another branch): a database that already
    /// has the higher version must still get the lower one when it arrives.
    @Test("a version lower than the newest applied one is still applied when it arrives later")
    func lowerVersionArrivingLater() async throws {
        try await TemporaryDirectory.with { directory in
            let (store, close) = try await SQLStore.sqlite(path: directory.appendingPathComponent("store.sqlite").path, logger: testLogger)
            do {
                let versions = SQLStore.migrations.map(\.version)
                #expect(versions.contains(16))
                // 14 only creates indexes (`IF NOT EXISTS`), so it can run again on this database: as if
                // it had not existed yet when 16 was applied.
                let lower = 14
                try await store.db.delete(from: "schema_migrations").where("version", .equal, lower).run()
                #expect(try await store.appliedMigrations() == versions.filter { $0 != lower })
                try await store.migrate()
                #expect(try await store.appliedMigrations() == versions)
            } catch {
                try await close()
                throw error
            }
            try await close()
        }
    }
}
