import NIOCore

/// Runs the jobs of the tasks that prefer it (`withTaskExecutorPreference`) on one event loop.
///
/// The SQLite writer's statements complete on its event loop. A task that runs a transaction with
/// this executor preferred resumes there after each statement, instead of queueing in the shared
/// cooperative pool behind whatever else is waiting (under load, id_tokens to sign) while it holds
/// the writer.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
