import CSwiftConcurrencyHook
import NIOCore
import NIOPosix
import Synchronization

/// `siwa serve` runs Swift Concurrency's jobs on NIO's event loops instead of Swift's own cooperative
/// pool (issue 38).
///
/// Hummingbird reads every request on an event loop of `MultiThreadedEventLoopGroup.singleton` and
/// hands it to the connection's task, which ran in the cooperative pool: two more threads on the
/// same cores, and a thread hand-off on the way in and another on the way out of every request. With
/// the singleton group as the global executor, a job enqueued from one of its loops stays on that loop
/// (`EventLoopGroup.any()` is sticky), so a request's Swift code runs where its bytes arrived.
///
/// The runtime's global-enqueue hook is set through the linker (`CSwiftConcurrencyHook`), not found
/// with `dlsym` as NIO's `unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor` finds
/// it: in the packaged binary, linked with the static Swift runtime, the hook is a local symbol that
/// `dlsym` cannot see, and that binary kept Swift's pool.
///
/// What this asks of the code: nothing that a task runs may block on an `EventLoopFuture` (`wait()`
/// refuses on an event loop) — the server has no such call. Delayed jobs (`Task.sleep`) still go to
/// Dispatch. `SIWA_CONCURRENCY_POOL=swift` keeps Swift's pool (for comparison, or should a library
/// ever need it).
public enum ConcurrencyOnEventLoops {
    /// The environment variable that keeps Swift's own pool when set to `swift`.
    public static let environmentVariable = "SIWA_CONCURRENCY_POOL"

    private static let installedFlag = Atomic(false)

    /// Whether this process's jobs run on NIO's event loops (``installIfWanted(arguments:environment:)``
    /// installed them), for the start-up log.
    public static var isInstalled: Bool { installedFlag.load(ordering: .relaxed) }

    /// Whether the command line (without the program's name) starts the server and the environment
    /// does not keep Swift's pool.
    public static func isWanted(arguments: [String], environment: [String: String]) -> Bool {
        arguments.first == "serve" && environment[environmentVariable] != "swift"
    }

    /// Installs the singleton event loop group as Swift Concurrency's global executor when
    /// ``isWanted(arguments:environment:)``; true when it did. Call it once, first thing in `main`,
    /// before any task starts.
    @discardableResult
    public static func installIfWanted(arguments: [String], environment: [String: String]) -> Bool {
        guard isWanted(arguments: arguments, environment: environment) else { return false }
        let installed = siwa_install_global_job_sink { job in
            // The runtime's `Job *`, which Swift names `UnownedJob` (one pointer).
            let job = unsafeBitCast(job, to: UnownedJob.self)
            MultiThreadedEventLoopGroup.singleton.any().enqueue(ExecutorJob(job))
        }
        installedFlag.store(installed, ordering: .relaxed)
        return installed
    }

    /// What the start-up log says runs the server's tasks.
    public static var startupNote: String {
        isInstalled
            ? "Swift tasks run on NIO's event loops"
            : "Swift tasks run on Swift's own pool (\(environmentVariable)=swift, or the hook was taken)"
    }
}
