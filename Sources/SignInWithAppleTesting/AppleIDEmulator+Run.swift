import AppleIDConsole
import AppleIDDevelopmentFaults
import AppleIDMemoryStore
import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import AppleIDServer
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import SignInWithApple

/// Runs an ``AppleIDEmulator`` on a free port of 127.0.0.1 for the duration of `body`, then stops it.
///
/// - Parameters:
///   - clock: the server's clock; a `ManualClock` lets a test move time.
///   - keyFactory: signing keys; the default generates two RSA-2048 keys.
///   - logger: the server's log; the default writes warnings and errors only, so a passing test's
///     output stays quiet (pass a logger at `.info` or `.debug` to see each request). Refusals reach
///     ``AppleIDEmulator/lastRefusal(clientID:)`` whatever its level.
public func withAppleIDEmulator<T: Sendable>(
    clock: any AdjustableClock = SystemClock(), keyFactory: any SigningKeyFactory = GeneratingSigningKeyFactory(),
    logger: Logger = AppleIDEmulator.defaultLogger, _ body: @Sendable (AppleIDEmulator) async throws -> T
) async throws -> T {
    try await withAppleIDEmulator(clock: clock, keyFactory: keyFactory, logger: logger, ports: freeLoopbackPort, body)
}

/// ``withAppleIDEmulator(clock:keyFactory:logger:_:)`` with the ports to try coming from `ports`.
func withAppleIDEmulator<T: Sendable>(
    clock: any AdjustableClock, keyFactory: any SigningKeyFactory, logger: Logger, ports: () async throws -> Int,
    _ body: @Sendable (AppleIDEmulator) async throws -> T
) async throws -> T {
    // The port is chosen before the server binds it (the issuer names it), so another socket of the
    // process may take it in between: then the server cannot start, and a new port is tried.
    for attempt in 1...AppleIDEmulator.startAttempts {
        do {
            return try await runAppleIDEmulator(port: try await ports(), clock: clock, keyFactory: keyFactory, logger: logger, body)
        } catch let failure as EmulatorStartFailure where attempt < AppleIDEmulator.startAttempts {
            logger.notice("Apple ID emulator did not start; trying another port", metadata: ["reason": "\(failure.reason)"])
        }
    }
    throw AppleIDEmulator.EmulatorError.didNotStart
}

/// The server could not start (its port was taken): `body` has not run.
struct EmulatorStartFailure: Error {
    let reason: String
}

private func runAppleIDEmulator<T: Sendable>(
    port: Int, clock: any AdjustableClock, keyFactory: any SigningKeyFactory, logger: Logger,
    _ body: @Sendable (AppleIDEmulator) async throws -> T
) async throws -> T {
    let baseURL = "http://127.0.0.1:\(port)"
    var configuration = ProviderConfiguration(issuer: baseURL)
    configuration.passwordHashCost = 4
    configuration.registryCacheLifetime = 0
    configuration.developmentMode = true  // a test may register http://127.0.0.1 Return URLs
    // The server sends Apple's terse answer and hands each refusal, with its precise reason, to the
    // emulator's observer, so that tests see the reasons while the wire stays Apple's.
    let refusalLog = RefusalLog()
    let storage = ProviderStorage.inMemory
    let provider = try await AppleIDProvider.start(
        configuration: configuration, storage: storage, clock: clock, keyFactory: keyFactory, logger: logger, refusalObserver: refusalLog,
        // The admin API's request log, which `siwa check` reads to say why the app's token request failed.
        requestRecorder: try StoredRequestLog(storage: storage, logger: logger),
        faultSwitch: TokenFaults(logger: logger))
    let relay = try MailRelay(provider: provider, storage: storage)
    let emulator = try await AppleIDEmulator.seed(provider: provider, relay: relay, baseURL: baseURL, clock: clock, refusalLog: refusalLog)
    let router = try await buildRouter(
        provider: provider, relay: relay, options: ServerOptions(port: port, baseURL: baseURL, adminToken: emulator.adminToken))
    // One value: `true` once the server listens, `false` if it stopped before that.
    let (started, startedContinuation) = AsyncStream<Bool>.makeStream()
    let app = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
        onServerRunning: { _ in
            startedContinuation.yield(true)
            startedContinuation.finish()
        }, logger: logger)

    // Stopped by a graceful shutdown, as `siwa serve` is on SIGTERM: the server closes its listener
    // and lets open connections finish. Cancelling it instead makes Hummingbird log errors
    // ("Waiting on child channel: CancellationError()") into the user's test output.
    let services = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
    return try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask {
            do {
                try await services.run()
            } catch {
                startedContinuation.yield(false)
                startedContinuation.finish()
                throw error
            }
            startedContinuation.finish()
            return nil
        }
        var running = false
        for await value in started {
            running = value
            break
        }
        guard running else {
            group.cancelAll()
            var reason = "the server stopped before it listened"
            do {
                while try await group.next() != nil {}
            } catch {
                reason = "\(error)"
            }
            throw EmulatorStartFailure(reason: reason)
        }
        let result: T
        do {
            result = try await body(emulator)
        } catch {
            await services.triggerGracefulShutdown()
            while (try? await group.next()) != nil {}
            throw error
        }
        await services.triggerGracefulShutdown()
        while try await group.next() != nil {}
        return result
    }
}

/// A port the kernel just handed out on 127.0.0.1 (released again at once).
func freeLoopbackPort() async throws -> Int {
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
    let port = channel.localAddress?.port
    try await channel.close()
    guard let port else { throw AppleIDEmulator.EmulatorError.didNotStart }
    return port
}

extension AppleIDEmulator {
    /// Registers the emulated team, app group, Services ID, notification endpoint, key and default user
    /// through the engine's operations, so they pass the rules a developer's would.
    static func seed(
        provider: AppleIDProvider, relay: MailRelay, baseURL: String, clock: any AdjustableClock, refusalLog: RefusalLog
    ) async throws -> AppleIDEmulator {
        let teamID: TeamID = "EMUTEAM123"
        let bundleID: ClientID = "com.example.emulated"
        let servicesID: ClientID = "com.example.emulated.web"
        let redirectURI = "https://app.example.com/auth/apple/callback"
        _ = try await provider.registerTeam(id: teamID, name: "Emulated Team")
        _ = try await provider.createAppID(teamID: teamID, bundleID: bundleID.rawValue, description: "Emulated App")
        _ = try await provider.createServicesID(
            teamID: teamID, identifier: servicesID.rawValue, description: "Emulated App on the web", primaryAppID: bundleID,
            returnURLs: [redirectURI])
        // Where deliveredNotifications() delivers, in process: the engine's delivery needs an endpoint.
        _ = try await provider.setNotificationEndpoint("https://app.example.com/auth/apple/notifications", groupID: bundleID, teamID: teamID)
        let (key, privateKeyPEM) = try await provider.registerKey(teamID: teamID, primaryAppID: bundleID)
        let user = User(appleID: "user@example.com", password: "password", firstName: "Emma", lastName: "Apple", email: "user@example.com")
        _ = try await provider.createAccount(
            appleID: user.appleID, password: user.password, firstName: user.firstName, lastName: user.lastName, email: user.email)
        return AppleIDEmulator(
            baseURL: baseURL, provider: provider, relay: relay, teamID: teamID.rawValue, bundleID: bundleID.rawValue, servicesID: servicesID.rawValue,
            redirectURI: redirectURI,
            credentials: AppleCredentials(teamID: teamID.rawValue, keyID: key.id.rawValue, privateKeyPEM: privateKeyPEM),
            defaultUser: user, adminToken: provider.random.hex(bytes: 16), clock: clock, refusalLog: refusalLog)
    }
}

extension AppleIDEmulator {
    /// The emulator's log unless a test passes its own: label `AppleIDEmulator`, warnings and up.
    public static var defaultLogger: Logger {
        var logger = Logger(label: "AppleIDEmulator")
        logger.logLevel = .warning
        return logger
    }
}
