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
            let port = try await Self.freePort()
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
                clock: { Date().addingTimeInterval(ahead.withLock { $0 }) }, onServerRunning: { continuation.finish() })
            let services = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: Logger(label: "juice-check")))
            return try await withThrowingTaskGroup(of: [CheckResult]?.self) { group in
                group.addTask {
                    try await services.run()
                    return nil
                }
                for await _ in started {}
                var options = CheckOptions(
                    start: base + "/signin", probe: base + "/account", server: apple.baseURL, adminToken: apple.adminToken,
                    victim: apple.defaultUser.appleID, attacker: "attacker@example.com")
                options.notifications = JuiceConfiguration.notificationURL(baseURL: base)
                options.delete = base + "/account/delete"
                options.timeoutDelay = 10
                let results = await AppChecker(options: options, wait: { seconds in ahead.withLock { $0 += seconds } }).run()
                await services.triggerGracefulShutdown()
                while try await group.next() != nil {}
                try await database.close()
                return results
            }
        }
        let failed = results.filter { $0.outcome == .failed }
        #expect(failed.isEmpty, "\(failed.map { "\($0.check.rawValue): \($0.detail)" })")
        // Every check ran and passed, advice (PKCE S256, scopes name and email) and notifications and deletion included.
        #expect(results.filter { $0.outcome != .passed }.map(\.check) == [])
    }

    /// A port the kernel just handed out on 127.0.0.1 (Juice's base URL names it before it listens).
    static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }
}
