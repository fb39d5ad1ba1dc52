import AppleIDProvider
import Synchronization

/// Request-log entries waiting to be written in one batch. The token and authorization endpoints
/// record every request, and writing each as it happens cost two writes per request on the database's
/// single writer; a batch costs one insert and one trim per client for many requests.
///
/// ``StoredRequestLog`` writes the buffer when it holds ``capacity`` entries, before it reads the log,
/// and when ``AppleIDProvider/flushRequestLog()`` is called (`siwa serve` calls it every 250 ms and at
/// shutdown). So the Requests page of this instance is always complete, another instance's entries
/// show within the flush interval, and a process killed with SIGKILL loses the entries of its last
/// interval: the log is a diagnostic view, not state the protocol depends on.
///
/// Each drained batch is numbered until it is written, so that a flush can wait for the batches that
/// other flushes took before it and are still writing (``waitForBatchesDrainedSoFar()``): a read of the
/// log right after a request then shows it, even when the timer's flush had taken it a moment before.
final class RequestLogBuffer: Sendable {
    let capacity: Int

    private struct State {
        var entries: [RequestLogEntry] = []
        var nextBatch = 0
        /// Drained and not yet written.
        var writing: Set<Int> = []
        /// Flushes waiting until no batch up to `lastBatch` is being written.
        var waiting: [(lastBatch: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    init(capacity: Int) { self.capacity = capacity }

    /// Adds `entry`; true when the buffer is full and should be written now.
    func append(_ entry: RequestLogEntry) -> Bool {
        state.withLock { state in
            state.entries.append(entry)
            return state.entries.count >= capacity
        }
    }

    /// Everything waiting, oldest first, as a numbered batch that ``written(_:)`` must close (written
    /// or dropped); nil when nothing waits.
    func drain() -> (number: Int, entries: [RequestLogEntry])? {
        state.withLock { state in
            guard !state.entries.isEmpty else { return nil }
            defer {
                state.entries.removeAll(keepingCapacity: true)
                state.nextBatch += 1
            }
            state.writing.insert(state.nextBatch)
            return (state.nextBatch, state.entries)
        }
    }

    /// The batch `number` is written (or dropped): flushes waiting for it go on.
    func written(_ number: Int) {
        let done = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.writing.remove(number)
            let oldestWriting = state.writing.min() ?? state.nextBatch
            let done = state.waiting.filter { $0.lastBatch < oldestWriting }.map(\.continuation)
            state.waiting.removeAll { $0.lastBatch < oldestWriting }
            return done
        }
        for continuation in done { continuation.resume() }
    }

    /// Returns once every batch drained before the call is written (or dropped). A batch's write is
    /// bounded by the store's own timeouts, so the wait is too.
    func waitForBatchesDrainedSoFar() async {
        await withCheckedContinuation { continuation in
            let mustWait = state.withLock { state -> Bool in
                let lastBatch = state.nextBatch - 1
                guard state.writing.contains(where: { $0 <= lastBatch }) else { return false }
                state.waiting.append((lastBatch, continuation))
                return true
            }
            if !mustWait { continuation.resume() }
        }
    }

    /// How many flushes wait for earlier batches (for tests).
    var waitingFlushes: Int { state.withLock { $0.waiting.count } }
}
