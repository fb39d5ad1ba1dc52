import AppleIDProtocol
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import SignInWithAppleTesting
import SiwaCheck
import Testing

/// `siwa check` against small apps on 127.0.0.1, each with one planted flaw (issue 20): every flaw
/// is reported by exactly the checks that name it, and the app without a flaw passes every check.
@Suite("siwa check: each planted flaw is caught by its checks, and nothing else fails")
struct BrokenAppTests {
    static let tokenChecks = Set(CheckID.allCases.filter { $0.rawValue.hasPrefix("token.") })

    /// The checks that must fail for each flaw (nil: the app without a flaw).
    static func expectedFailures(_ flaw: TutorialApp.Flaw?) -> Set<CheckID> {
        switch flaw {
        case nil: []
        case .noStateCheck: [.callbackState]
        case .stateNotBound: [.callbackStateBound]
        // The form's id_token is taken instead of the token response's, so no token fault is seen.
        case .formTokenTrusted: tokenChecks.union([.callbackFormIdentityToken])
        case .audienceNotChecked: [.tokenWrongAudience]
        case .expiredAccepted: [.tokenExpired]
        case .nonceIgnored: [.tokenNonce, .callbackCodeInjection]
        // An injected code's token carries the attacker's nonce, which is compared: only a missing nonce passes.
        case .nonceOptional: [.tokenNonce]
        case .algNoneAccepted: [.tokenAlgNone]
        case .userEmailTrusted: [.trustUserEmail]
        case .replayable: [.callbackReplay]
        }
    }

    @Test("the flaw is named by its checks, and every other check that ran passed", arguments: [nil] + TutorialApp.Flaw.allCases)
    func caught(flaw: TutorialApp.Flaw?) async throws {
        let results = try await Self.check(flaw)
        let failed = Set(results.filter { $0.outcome == .failed }.map(\.check))
        #expect(failed == Self.expectedFailures(flaw), "\(results.filter { $0.outcome == .failed }.map { "\($0.check.rawValue): \($0.detail)" })")
        // Only the checks that need URLs this run does not give are not run.
        let notRun = Set(results.filter { $0.outcome == .notRun }.map(\.check))
        #expect(notRun == Set(CheckID.allCases.filter { $0.rawValue.hasPrefix("notify.") || $0 == .deleteRevoke }))
        #expect(results.count == CheckID.allCases.count)
    }

    /// Runs every check against a tutorial app with `flaw`, on an emulated Apple ID server.
    static func check(_ flaw: TutorialApp.Flaw?) async throws -> [CheckResult] {
        try await withAppleIDEmulator { apple in
            try await apple.createUser(appleID: "attacker@example.com", firstName: "Eve", lastName: "Attacker")
            let app = TutorialApp(
                flaw: flaw,
                settings: .init(
                    server: apple.baseURL, clientID: apple.servicesID, teamID: apple.credentials.teamID, keyID: apple.credentials.keyID,
                    privateKeyPEM: apple.credentials.privateKeyPEM))
            return try await app.serve { base in
                _ = try await apple.provider.addReturnURL(app.redirectURI, servicesID: ClientID(rawValue: apple.servicesID))
                var options = CheckOptions(
                    start: base + "/login", probe: base + "/me", server: apple.baseURL, adminToken: apple.adminToken,
                    victim: apple.defaultUser.appleID, attacker: "attacker@example.com")
                // Longer than the app's token timeout (5 s): an app that waits it out signs in late.
                options.timeoutDelay = 10
                return await AppChecker(options: options).run()
            }
        }
    }
}

extension TutorialApp {
    /// Serves the app on a free port of 127.0.0.1 while `body` runs, then shuts it down gracefully.
    func serve<T: Sendable>(_ body: @Sendable (String) async throws -> T) async throws -> T {
        let (started, continuation) = AsyncStream<Int>.makeStream()
        let logger = Logger(label: "TutorialApp")
        let application = Application(
            router: router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? 0
                self.port.withLock { $0 = bound }
                continuation.yield(bound)
                continuation.finish()
            }, logger: logger)
        let services = ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [], logger: logger))
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                do {
                    try await services.run()
                } catch {
                    continuation.finish()
                    throw error
                }
                continuation.finish()
                return nil
            }
            var bound = 0
            for await value in started {
                bound = value
                break
            }
            guard bound != 0 else {
                while try await group.next() != nil {}
                throw AppDidNotStart()
            }
            do {
                let result = try await body("http://127.0.0.1:\(bound)")
                await services.triggerGracefulShutdown()
                while try await group.next() != nil {}
                return result
            } catch {
                await services.triggerGracefulShutdown()
                while (try? await group.next()) != nil {}
                throw error
            }
        }
    }
}

struct AppDidNotStart: Error {}
