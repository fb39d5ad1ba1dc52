import AppleIDProtocol
import Foundation
import JuiceApp
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import SignInWithApple
import SignInWithAppleTesting
import SiwaCheck
import Synchronization
import Testing

/// The proof of issue 20 on the sample app: Juice, built on the kit's Hummingbird routes, passes
/// every check that runs.
@Suite("siwa check: Juice passes every check")
struct JuiceCheckTests {
    @Test("Juice, started with its CSRF-checked POST, passes every check, notifications and deletion included")
    func juicePasses() async throws {
        let results = try await withAppleIDEmulator { apple in
            try await apple.createUser(appleID: "attacker@example.com", firstName: "Eve", lastName: "Attacker")
            try await BrokenAppTests.addSchool(to: apple)
            for attempt in 1...5 {
                let port = try await Self.freePort()
                if let results = try await Self.checkJuice(apple: apple, port: port, lastAttempt: attempt == 5) { return results }
            }
            preconditionFailure("the last attempt returns or throws")
        }
        let failed = results.filter { $0.outcome == .failed }
        #expect(failed.isEmpty, "\(failed.map { "\($0.check.rawValue): \($0.detail)" })")
        // Every check ran and passed, advice (PKCE S256, scopes name and email) and notifications and deletion included.
        #expect(results.filter { $0.outcome != .passed }.map(\.check) == [])
    }

    /// Starts Juice on a port the kernel just handed out and runs every check against it. Under CI's load
    /// another test's bind to port 0 can take that port before Juice listens (`EADDRINUSE`): then Juice's
    /// start fails, the wait for its listener ends with it, and this returns `nil` (the caller tries another
    /// port) or, on the last attempt, throws why Juice did not start.
    static func checkJuice(apple: AppleIDEmulator, port: Int, lastAttempt: Bool) async throws -> [CheckResult]? {
        let base = "http://127.0.0.1:\(port)"
        var configuration = JuiceConfiguration(
            port: port, signInWithApple: apple.clientConfiguration(), passwordHasher: PasswordHasher(cost: 4))
        configuration.signInWithApple.web?.redirectURI = JuiceConfiguration.redirectURI(baseURL: base)
        try await apple.addReturnURL(JuiceConfiguration.redirectURI(baseURL: base))
        let database = try await JuiceDatabase.open(path: nil, logger: Logger(label: "juice-check"))
        let (started, continuation) = AsyncStream<Void>.makeStream()
        // A token deadline shorter than token.timeout's silence (10 s): Juice must give up first.
        // Juice's clock runs ahead by what the check waits: drift.key-rotation waits out the key set's refetch cooldown.
        let ahead = Mutex<Double>(0)
        let app = try await buildJuiceApplication(
            configuration: configuration, database: database, transport: AsyncHTTPClientTransport(timeout: .seconds(5)), retry: .none,
            clock: { Date().addingTimeInterval(ahead.withLock { $0 }) },
            onServerRunning: {
                continuation.yield()
                continuation.finish()
            })
        let services = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: Logger(label: "juice-check")))
        let results: [CheckResult]?
        do {
            results = try await withThrowingTaskGroup(of: [CheckResult]?.self) { group -> [CheckResult]? in
                group.addTask {
                    // A start that fails (the port taken meanwhile) ends the wait for the listener too.
                    defer { continuation.finish() }
                    try await services.run()
                    return nil
                }
                // Juice yields once it listens; a start that fails ends the stream without a value.
                guard await started.first(where: { true }) != nil else {
                    do {
                        while try await group.next() != nil {}
                    } catch  where !lastAttempt {
                        return nil
                    }
                    throw JuiceDidNotListen()
                }
                var options = CheckOptions(
                    start: base + "/signin", probe: base + "/account", server: apple.baseURL, adminToken: apple.adminToken,
                    victim: apple.defaultUser.appleID, attacker: "attacker@example.com")
                options.notifications = JuiceConfiguration.notificationURL(baseURL: base)
                options.delete = base + "/account/delete"
                options.timeoutDelay = 10
                let results = await AppChecker(options: options, wait: { seconds in ahead.withLock { $0 += seconds } }).run()
                await services.triggerGracefulShutdown()
                while try await group.next() != nil {}
                return results
            }
        } catch {
            // SQLite wants its connection closed before it goes, whatever happened.
            try? await database.close()
            throw error
        }
        try await database.close()
        return results
    }

    @Test("A port taken before Juice listens ends the attempt (nil: try another) instead of waiting for a listener forever")
    func takenPort() async throws {
        let taken = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(taken.localAddress?.port)
        let outcome = try await withAppleIDEmulator { apple in
            try await Self.checkJuice(apple: apple, port: port, lastAttempt: false)
        }
        #expect(outcome == nil)
        await #expect(throws: (any Error).self) {
            try await withAppleIDEmulator { apple in _ = try await Self.checkJuice(apple: apple, port: port, lastAttempt: true) }
        }
        try await taken.close()
    }

    /// Juice's services ended without an error and without listening.
    struct JuiceDidNotListen: Error {}
    /// A port the kernel just handed out on 127.0.0.1 (Juice's base URL names it before it listens).
    static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }
}
