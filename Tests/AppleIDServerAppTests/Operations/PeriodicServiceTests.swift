import AppleIDProvider
import AppleIDServerApp
import Logging
import ServerTestSupport
import ServiceLifecycle
import Synchronization
import Testing

/// The one loop of the server's background work. No test waits on time: the intervals are an hour,
/// and what moves the loop is a pass that finds more due, a signal, or a graceful shutdown. The limit
/// is the other suites' five minutes: on 2 loaded cores (CI) every hop waits behind the whole run's
/// queued work, and two minutes were exceeded once.
@Suite("Periodic service: passes, waits, failures and shutdown", .timeLimit(.minutes(5)))
struct PeriodicServiceTests {
    /// Runs `service` in a service group until `ready` yields, then shuts it down gracefully.
    static func run(_ service: PeriodicService, until ready: AsyncStream<Void>) async throws {
        let group = ServiceGroup(configuration: .init(services: [service], logger: Logger(label: "test")))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ready.makeAsyncIterator()
            _ = await iterator.next()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    @Test("a pass that finds more due runs again at once; a graceful shutdown ends the hour's wait and runs afterShutdown once")
    func moreDueThenShutdown() async throws {
        let passes = Mutex(0)
        let shutdowns = Mutex(0)
        let (ready, done) = AsyncStream.makeStream(of: Void.self)
        let service = PeriodicService(
            pace: .every(.seconds(3600)), failureMessage: "pass failed", logger: Logger(label: "test"),
            afterShutdown: { shutdowns.withLock { $0 += 1 } },
            pass: {
                let count = passes.withLock { count in
                    count += 1
                    return count
                }
                if count == 3 { done.yield() }
                return count < 3
            })
        try await Self.run(service, until: ready)
        #expect(passes.withLock { $0 } == 3, "three passes back to back, then the wait the shutdown cut short")
        #expect(shutdowns.withLock { $0 } == 1)
    }

    @Test("a failed pass is logged with its error's type, and the loop goes on")
    func failureLoggedLoopGoesOn() async throws {
        struct Unreachable: Error {}
        let signal = CredentialEventSignal()
        let passes = Mutex(0)
        let (ready, done) = AsyncStream.makeStream(of: Void.self)
        let lines = RecordingLogHandler.Lines()
        let service = PeriodicService(
            pace: .signalled(signal, timeout: .seconds(3600)), failureMessage: "relay delivery pass failed", failureLevel: .warning,
            logger: Logger(label: "recorded") { _ in RecordingLogHandler(lines: lines) }
        ) {
            let count = passes.withLock { count in
                count += 1
                return count
            }
            if count == 1 {
                signal.signal()  // more work came while the pass failed: the loop must not stop at the failure
                throw Unreachable()
            }
            done.yield()
            return false
        }
        try await Self.run(service, until: ready)
        #expect(passes.withLock { $0 } == 2)
        let failure = try #require(lines.all.first { $0.message == "relay delivery pass failed" })
        #expect(failure.metadata["error"]?.hasSuffix("Unreachable") == true)
    }

    @Test("a signalled pace wakes on the engine's signal, long before its timeout")
    func signalWakes() async throws {
        let signal = CredentialEventSignal()
        let passes = Mutex(0)
        let (ready, done) = AsyncStream.makeStream(of: Void.self)
        let service = PeriodicService(pace: .signalled(signal, timeout: .seconds(3600)), failureMessage: "pass failed", logger: Logger(label: "test"))
        {
            let count = passes.withLock { count in
                count += 1
                return count
            }
            if count == 1 { signal.signal() }  // new work arrives while the first pass runs
            if count == 2 { done.yield() }
            return false
        }
        try await Self.run(service, until: ready)
        #expect(passes.withLock { $0 } == 2)
    }
}
