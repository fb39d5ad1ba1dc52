import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import SignInWithApple
import SignInWithAppleSQL
import Synchronization
import Testing

@Suite("The SQL storage stays bounded without counting its table at every insert", .timeLimit(.minutes(5)))
struct SQLStorageCostTests {
    @Test("a hundred inserts count the table at most once, and a full table is still refused")
    func insertsDoNotCount() async throws {
        let source = SQLiteConnectionSource(configuration: .init(storage: .memory), threadPool: .singleton)
        let connection = try await source.makeConnection(logger: Logger(label: "test"), on: MultiThreadedEventLoopGroup.singleton.any()).get()
        defer { try? connection.close().wait() }
        let recording = RecordingDatabase(base: connection.sql())
        let storage = SQLSignInWithAppleStorage(database: recording, capacity: 150)
        try await storage.migrate()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<100 {
            #expect(try await storage.insert([1], forKey: "k\(index)", expiresAt: now.addingTimeInterval(60), now: now))
        }
        let counts = recording.statements.filter { $0.uppercased().contains("COUNT(") }
        #expect(counts.count <= 1, "\(counts.count) statements counted the table")

        let small = SQLSignInWithAppleStorage(database: recording, table: "small_entries", capacity: 3)
        try await small.migrate()
        for index in 0..<3 { #expect(try await small.insert([1], forKey: "s\(index)", expiresAt: now.addingTimeInterval(60), now: now)) }
        await #expect(throws: SignInWithAppleStorageError.full(capacity: 3)) {
            try await small.insert([1], forKey: "flood", expiresAt: now.addingTimeInterval(60), now: now)
        }
    }
}

/// An SQL database that remembers the text of every statement it runs.
final class RecordingDatabase: SQLDatabase {
    let base: any SQLDatabase
    private let recorded = Mutex<[String]>([])

    init(base: any SQLDatabase) { self.base = base }

    var statements: [String] { recorded.withLock { $0 } }
    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        record(query)
        return base.execute(sql: query, onRow)
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        record(query)
        try await base.execute(sql: query, onRow)
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await closure(self)
    }

    private func record(_ query: any SQLExpression) {
        let text = serialize(query).sql
        recorded.withLock { $0.append(text) }
    }
}
