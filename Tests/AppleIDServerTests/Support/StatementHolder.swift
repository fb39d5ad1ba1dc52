import AppleIDStore
import SQLKit
import Synchronization

/// A SQL database that, once told to, holds back each statement whose SQL contains a text until
/// ``release()``: a write that has reached the database and not finished, as a busy writer makes it.
final class StatementHolder: SQLDatabaseWrapper, Sendable {
    let wrapped: any SQLDatabase

    private struct State {
        var holding: String?
        var held: [CheckedContinuation<Void, Never>] = []
        var watchers: [CheckedContinuation<Void, Never>] = []
        var arrived: [String] = []
    }

    private let state = Mutex(State())

    init(_ database: any SQLDatabase) { wrapped = database }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        var serializer = SQLSerializer(database: wrapped)
        query.serialize(to: &serializer)
        let sql = serializer.sql
        let holds = state.withLock { state in
            state.arrived.append(sql)
            return state.holding.map(sql.contains) ?? false
        }
        if holds {
            await withCheckedContinuation { continuation in
                let watchers = state.withLock { state in
                    state.held.append(continuation)
                    defer { state.watchers.removeAll() }
                    return state.watchers
                }
                for watcher in watchers { watcher.resume() }
            }
        }
        try await wrapped.execute(sql: query, onRow)
    }

    /// Whether a statement whose SQL contains `text` has arrived (held or not).
    func hasSeen(_ text: String) -> Bool { state.withLock { $0.arrived.contains { $0.contains(text) } } }

    /// From now on, statements whose SQL contains `text` wait for ``release()``.
    func hold(_ text: String) { state.withLock { $0.holding = text } }

    /// Returns once a statement is held.
    func waitUntilHeld() async {
        await withCheckedContinuation { continuation in
            let isHeld = state.withLock { state in
                if state.held.isEmpty { state.watchers.append(continuation) }
                return !state.held.isEmpty
            }
            if isHeld { continuation.resume() }
        }
    }

    /// Lets the held statements run, and holds no more.
    func release() {
        let held = state.withLock { state in
            state.holding = nil
            defer { state.held.removeAll() }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }
}
