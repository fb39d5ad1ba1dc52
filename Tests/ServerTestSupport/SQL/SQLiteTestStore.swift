import AppleIDStore
import Logging
import NIOPosix
import SQLKit
import SQLiteKit

/// A migrated SQL store on a fresh in-memory SQLite database, seen through a wrapper that a test
/// watches (a counter, a plan recorder, a holder). The connection is closed after `body`, whether it
/// threw or not.
package enum SQLiteTestStore {
    package static func with<Wrapper: SQLDatabase, T>(
        wrapping wrap: (any SQLDatabase) -> Wrapper, _ body: (SQLStore, Wrapper) async throws -> T
    ) async throws -> T {
        let connection = try await SQLiteConnection.open(
            storage: .memory, threadPool: .singleton, logger: Logger(label: "test"), on: MultiThreadedEventLoopGroup.singleton.any())
        let wrapper = wrap(connection.sql())
        let store = SQLStore(database: wrapper)
        do {
            try await store.migrate()
            let result = try await body(store, wrapper)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
