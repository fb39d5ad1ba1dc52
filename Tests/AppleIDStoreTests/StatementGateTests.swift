import Foundation
import Logging
import NIOPosix
import SQLKit
import Synchronization
import Testing

@testable import AppleIDStore

@Suite("Transactions on the shared SQLite connection")
struct StatementGateTests {
    struct Rollback: Error {}

    @Test("a statement issued during a transaction runs after it, not inside it", arguments: [true, false])
    func outsideStatementWaits(rollBack: Bool) async throws {
        let (store, shutdown) = try await SQLStore.sqlite(path: SQLStore.sqliteMemoryPath, logger: Logger(label: "test"))
        try await store.db.raw("CREATE TABLE gate_test (v TEXT NOT NULL)").run()
        let outside = OutsideTask()
        do {
            try await store.transaction { db in
                try await db.raw("INSERT INTO gate_test (v) VALUES ('inside')").run()
                outside.start { try await store.db.raw("INSERT INTO gate_test (v) VALUES ('outside')").run() }
                for _ in 0..<200 { await Task.yield() }
                if rollBack { throw Rollback() }
            }
        } catch is Rollback {}
        try await outside.wait()
        let rows = try await store.db.raw("SELECT v FROM gate_test ORDER BY rowid").all().map { try $0.decode(column: "v", as: String.self) }
        #expect(rows == (rollBack ? ["outside"] : ["inside", "outside"]))
        try await shutdown()
    }

    @Test("statements queued behind a transaction run before the transactions queued after it")
    func phaseFair() async throws {
        let gate = StatementGate()
        let order = RunOrder()
        let (hold, holder) = AsyncStream<Void>.makeStream()
        let first = Task { @Sendable in
            try await gate.withExclusive { @Sendable in
                order.append("A")
                for await _ in hold { break }
            }
        }
        try await Self.until { order.names == ["A"] }
        let later = ["B", "C"].map { name in Task { @Sendable in try await gate.withExclusive { @Sendable in order.append(name) } } }
        try await Self.until { gate.waiting.exclusive == 2 }
        let statement = Task { @Sendable in try await gate.withShared { @Sendable in order.append("S") } }
        try await Self.until { gate.waiting.shared == 1 }
        holder.yield()
        try await first.value
        try await statement.value
        for task in later { try await task.value }
        let ran = order.names
        #expect(Array(ran.prefix(2)) == ["A", "S"], "waiting transactions went first: \(ran)")
        #expect(Set(ran.dropFirst(2)) == ["B", "C"])
    }

    /// Yields until `condition` holds (bounded, so a broken gate fails instead of hanging).
    private static func until(_ condition: () -> Bool) async throws {
        for _ in 0..<1_000_000 where !condition() { await Task.yield() }
        try #require(condition())
    }

    /// Under load the shared cooperative pool is busy (signing id_tokens, say). A transaction whose
    /// statements resumed there would queue behind every waiting task between two statements while
    /// holding the writer, and every other write would queue behind it: the token benchmark used
    /// half the CPU it could. The writer's own event loop has nothing else to do.
    @Test("a transaction's statements resume on the writer's own event loop, not in the shared pool")
    func transactionResumesOnWriterLoop() async throws {
        let (store, shutdown) = try await SQLStore.sqlite(path: SQLStore.sqliteMemoryPath, logger: Logger(label: "test"))
        let writerLoop = store.db.eventLoop
        let resumedOnWriterLoop = try await store.transaction { db in
            try await db.raw("SELECT 1").run()
            let afterFirst = writerLoop.inEventLoop
            try await db.raw("SELECT 2").run()
            return [afterFirst, writerLoop.inEventLoop]
        }
        #expect(resumedOnWriterLoop == [true, true])
        // Its own loop: a long transaction body never holds up the HTTP server's connections.
        #expect(!MultiThreadedEventLoopGroup.singleton.makeIterator().contains { $0 === writerLoop })
        try await shutdown()
    }

    /// Under load the task that sent a statement waits for a thread of the busy cooperative pool; were
    /// the gate held until that task ran again, every transaction would wait for the pool too (issue 38).
    @Test("a statement frees the gate once the writer has it, before its answer")
    func statementFreesGateWhenHandedOver() async throws {
        let (store, shutdown) = try await SQLStore.sqlite(path: SQLStore.sqliteMemoryPath, logger: Logger(label: "test"))
        let writer = try #require(store.connections as? SQLiteConnections).writer
        let (reached, proceed) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let statement = Task {
            try await store.db.execute(sql: SQLRaw("SELECT 1 AS one")) { _ in
                reached.signal()
                proceed.wait()
            }
        }
        // The statement is on the writer (its row is being read) and has not answered yet.
        await withCheckedContinuation { (handedOver: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                reached.wait()
                handedOver.resume()
            }
        }
        // The caller lets go of the gate right after handing the statement over, which may be a moment
        // after the writer's thread has started it; it must not wait for the answer.
        for _ in 0..<1_000_000 where writer.gate.sharedHolders != 0 { await Task.yield() }
        let holders = writer.gate.sharedHolders
        proceed.signal()
        try await statement.value
        #expect(holders == 0, "the gate was held while the statement ran")
        try await shutdown()
    }

    @Test("many ordinary statements and transactions at once all complete")
    func mixedLoad() async throws {
        let (store, shutdown) = try await SQLStore.sqlite(path: SQLStore.sqliteMemoryPath, logger: Logger(label: "test"))
        try await store.db.raw("CREATE TABLE gate_load (v INTEGER NOT NULL)").run()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<100 {
                group.addTask {
                    if index % 10 == 0 {
                        try await store.transaction { db in
                            try await db.raw("INSERT INTO gate_load (v) VALUES (\(bind: index))").run()
                            try await db.raw("INSERT INTO gate_load (v) VALUES (\(bind: -index))").run()
                        }
                    } else {
                        try await store.db.raw("INSERT INTO gate_load (v) VALUES (\(bind: index))").run()
                    }
                }
            }
            try await group.waitForAll()
        }
        let count = try await store.db.raw("SELECT COUNT(*) AS n FROM gate_load").first()?.decode(column: "n", as: Int.self)
        #expect(count == 110)
        try await shutdown()
    }
}

/// The order in which work passed the gate.
final class RunOrder: Sendable {
    private let ran = Mutex<[String]>([])

    func append(_ name: String) { ran.withLock { $0.append(name) } }
    var names: [String] { ran.withLock { $0 } }
}

/// A task started from inside a transaction's body, awaited after it.
final class OutsideTask: Sendable {
    private let task = Mutex<Task<Void, any Error>?>(nil)

    func start(_ body: @escaping @Sendable () async throws -> Void) { task.withLock { $0 = Task { try await body() } } }

    func wait() async throws { try await task.withLock { $0 }?.value }
}
