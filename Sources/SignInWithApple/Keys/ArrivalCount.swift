import Synchronization

/// Counts arrivals and lets a caller await a number of them: the key set counts the callers that
/// wait on a shared fetch, so a test can release the fetch once every caller has joined it,
/// instead of yielding and hoping they have.
final class ArrivalCount: Sendable {
    private struct State {
        var count = 0
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    var count: Int { state.withLock { $0.count } }

    func arrive() {
        let ready = state.withLock { state in
            state.count += 1
            let total = state.count
            defer { state.waiters.removeAll { $0.count <= total } }
            return state.waiters.filter { $0.count <= total }.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns once at least `count` arrivals have been counted.
    func reached(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
