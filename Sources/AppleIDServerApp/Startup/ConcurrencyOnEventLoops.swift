import NIOCore
import NIOPosix

/// `siwa serve` runs Swift Concurrency's jobs on NIO's event loops instead of Swift's own cooperative
/// pool (issue 38).
///
/// Hummingbird reads every request on an event loop of `MultiThreadedEventLoopGroup.singleton` and
/// hands it to the connection's task, which ran in the cooperative pool: two more threads on the
/// same cores, and a thread hand-off on the way in and another on the way out of every request. With
/// the singleton group as the global executor, a job enqueued from one of its loops stays on that loop
/// (`EventLoopGroup.any()` is sticky), so a request's Swift code runs where its bytes arrived.
///
/// What this asks of the code: nothing that a task runs may block on an `EventLoopFuture` (`wait()`
/// refuses on an event loop) — the server has no such call. Delayed jobs (`Task.sleep`) still go to
/// Dispatch. `SIWA_CONCURRENCY_POOL=swift` keeps Swift's pool (for comparison, or should a library
/// ever need it). A binary that does not export the runtime's hook (some static links) keeps Swift's
/// pool too.
public enum ConcurrencyOnEventLoops {
    /// The environment variable that keeps Swift's own pool when set to `swift`.
    public static let environmentVariable = "SIWA_CONCURRENCY_POOL"

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
        return NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
