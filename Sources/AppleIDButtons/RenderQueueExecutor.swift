import Dispatch

/// Where a ``ButtonRenderer`` runs: a serial Dispatch queue of its own, not Swift's global executor.
///
/// Drawing a button takes milliseconds with no suspension point, and the gallery drawn ahead at
/// start-up is many of them back to back. On the global executor that time is taken from whatever
/// else runs there: in `siwa serve` that is NIO's event loops (``ConcurrencyOnEventLoops``), and a loop
/// runs the jobs queued on it before it reads its sockets, so every connection of the loop that drew
/// the gallery waited for it (a first request took 7 to 21 s in a debug build, past the CLI's 10 s
/// deadline); elsewhere it is Swift's cooperative pool, one thread per core. A serial queue gets a thread of Dispatch's own when it has work, which the kernel shares
/// with the event loops instead of taking one from them.
final class RenderQueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label, qos: .utility)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
