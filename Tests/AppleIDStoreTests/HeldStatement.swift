import AppleIDStore
import SQLKit
import Synchronization

/// A SQL database that can stop one statement before it runs, so a test can put another instance's
/// work in between, deterministically: ``hold(_:)`` arms it for the next statement whose SQL matches,
/// ``reached()`` waits until that statement is waiting, ``release()`` lets it run.
final class HeldStatement: SQLDatabaseWrapper, Sendable {
    let wrapped: any SQLDatabase
    private struct State {
        var matches: (@Sendable (String) -> Bool)?
        var isHolding = false
        var heldStatement: CheckedContinuation<Void, Never>?
        var waitingForHold: [CheckedContinuation<Void, Never>] = []
        var released = false
    }
    private let state = Mutex(State())

    init(_ database: any SQLDatabase) { wrapped = database }

    func hold(when matches: @escaping @Sendable (String) -> Bool) { state.withLock { $0 = State(matches: matches) } }

    /// Returns once the armed statement is held.
    func reached() async {
        await withCheckedContinuation { continuation in
            let isHolding = state.withLock { state in
                if !state.isHolding { state.waitingForHold.append(continuation) }
                return state.isHolding
            }
            if isHolding { continuation.resume() }
        }
    }

    func release() {
        let held = state.withLock { state in
            state.released = true
            defer { state.heldStatement = nil }
            return state.heldStatement
        }
        held?.resume()
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        var serializer = SQLSerializer(database: wrapped)
        query.serialize(to: &serializer)
        let sql = serializer.sql
        let armed = state.withLock { state in
            guard let matches = state.matches, matches(sql) else { return false }
            state.matches = nil
            return true
        }
        if armed {
            await withCheckedContinuation { continuation in
                let (waiting, released) = state.withLock { state in
                    state.isHolding = true
                    if !state.released { state.heldStatement = continuation }
                    defer { state.waitingForHold = [] }
                    return (state.waitingForHold, state.released)
                }
                for waiter in waiting { waiter.resume() }
                if released { continuation.resume() }
            }
        }
        try await wrapped.execute(sql: query, onRow)
    }
}
