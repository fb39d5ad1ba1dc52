import Synchronization

/// An answer within a time limit from work that may not stop when asked to.
///
/// A task group waits for every child before it returns, so a probe that raced its check against a
/// timer in a group still waited for a check that ignored cancellation: `/health/ready` took over
/// 10 s while PostgreSQL restarted. Here the work runs in a task of its own, which is cancelled and
/// left to end by itself when the time runs out. Only for work whose result may be dropped: a read.
enum FirstAnswer {
    static func within<T: Sendable>(
        _ limit: Duration, otherwise fallback: T, _ work: @escaping @Sendable () async -> T
    ) async -> T {
        let answer = Answer<T>()
        return await withCheckedContinuation { continuation in
            answer.await(continuation)
            let worker = Task { answer.give(await work()) }
            Task {
                try? await Task.sleep(for: limit)
                if answer.give(fallback) { worker.cancel() }
            }
        }
    }
}

/// The continuation that the first of the work and the timer resumes.
private final class Answer<T: Sendable>: Sendable {
    private let waiting = Mutex<CheckedContinuation<T, Never>?>(nil)

    func await(_ continuation: CheckedContinuation<T, Never>) { waiting.withLock { $0 = continuation } }

    /// Resumes the caller with `value` unless it was resumed already; `true` if this call did.
    @discardableResult
    func give(_ value: T) -> Bool {
        guard let continuation = waiting.withLock({ $0.take() }) else { return false }
        continuation.resume(returning: value)
        return true
    }
}
