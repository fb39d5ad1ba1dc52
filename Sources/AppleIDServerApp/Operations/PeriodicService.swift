import AppleIDProvider
import Logging
import ServiceLifecycle

/// The one loop of the server's background work (notification delivery, the expired-record sweep,
/// the request-log flush, key rotation, the relay's smarthost queue): a pass, then a wait, until
/// graceful shutdown, which cancels the wait at once and lets a pass under way finish.
///
/// - A pass that answers `true` found more due work: the next one starts without waiting.
/// - With `maximumConcurrentPasses` over 1, passes overlap (a slow endpoint does not hold back the next
///   pass); at the bound the loop waits for one to end.
/// - A failed pass is logged (its error's type only: no secrets in logs) and the loop goes on.
public struct PeriodicService: Service {
    /// What the loop waits for between passes.
    public enum Pace: Sendable {
        /// A fixed interval.
        case every(Duration)
        /// A signal from the engine (new work), or `timeout` at the latest.
        case signalled(CredentialEventSignal, timeout: Duration)
    }

    let pace: Pace
    let maximumConcurrentPasses: Int
    let failure: (message: Logger.Message, level: Logger.Level)
    let logger: Logger
    let pass: @Sendable () async throws -> Bool
    let afterShutdown: @Sendable () async -> Void

    /// - Parameters:
    ///   - failureMessage: the log line of a failed pass, at `failureLevel`.
    ///   - afterShutdown: runs once after the last pass (a last flush, leases given back).
    ///   - pass: one pass; `true` when more is due now.
    public init(
        pace: Pace, maximumConcurrentPasses: Int = 1, failureMessage: Logger.Message, failureLevel: Logger.Level = .error,
        logger: Logger, afterShutdown: @escaping @Sendable () async -> Void = {}, pass: @escaping @Sendable () async throws -> Bool
    ) {
        precondition(maximumConcurrentPasses >= 1, "at least one pass runs")
        self.pace = pace
        self.maximumConcurrentPasses = maximumConcurrentPasses
        self.failure = (failureMessage, failureLevel)
        self.logger = logger
        self.afterShutdown = afterShutdown
        self.pass = pass
    }

    public func run() async throws {
        await withTaskGroup(of: Bool.self) { passes in
            var unfinished = 0
            while !Task.isShuttingDownGracefully && !Task.isCancelled {
                let generation = signalGeneration
                passes.addTask { await runPass() }
                unfinished += 1
                var moreDue = false
                if unfinished == maximumConcurrentPasses, let more = await passes.next() {
                    unfinished -= 1
                    moreDue = more
                }
                if moreDue { continue }
                await wait(since: generation)
            }
        }
        await afterShutdown()
    }

    private var signalGeneration: Int? {
        if case .signalled(let signal, _) = pace { signal.generation } else { nil }
    }

    private func runPass() async -> Bool {
        do {
            return try await pass()
        } catch {
            logger.log(level: failure.level, failure.message, metadata: ["error": "\(String(reflecting: type(of: error)))"])
            return false
        }
    }

    private func wait(since generation: Int?) async {
        switch pace {
        case .every(let interval):
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
        case .signalled(let signal, let timeout):
            let generation = generation ?? signal.generation
            try? await cancelWhenGracefulShutdown { await signal.wait(since: generation, timeout: timeout) }
        }
    }
}
