import Logging
import NIOPosix
import SQLKit
import SQLiteKit

/// One private in-memory SQLite connection on a one-thread pool, as the store's writer is, open for
/// the duration of `body` and closed after it (also when it throws).
func withMemorySQLiteConnection<T>(_ body: (SQLiteConnection) async throws -> T) async throws -> T {
    let threadPool = NIOThreadPool(numberOfThreads: 1)
    threadPool.start()
    let connection = try await SQLiteConnection.open(
        storage: .memory, threadPool: threadPool, logger: Logger(label: "test"), on: MultiThreadedEventLoopGroup.singleton.any())
    do {
        let result = try await body(connection)
        try await connection.close()
        try await threadPool.shutdownGracefully()
        return result
    } catch {
        try? await connection.close()
        try? await threadPool.shutdownGracefully()
        throw error
    }
}
