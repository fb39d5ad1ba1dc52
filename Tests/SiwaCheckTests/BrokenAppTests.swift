import AppleIDProtocol
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import SignInWithAppleTesting
import Testing

@testable import SiwaCheck

/// `siwa check` against small apps on 127.0.0.1, each with one planted flaw (issue 20): every flaw
/// is reported by exactly the checks that name it, and the app without a flaw passes every check.
@Suite("siwa check: each planted flaw is caught by its checks, and nothing else fails")
struct BrokenAppTests {
    static let tokenChecks = Set(CheckID.allCases.filter { $0.rawValue.hasPrefix("token.") })

    /// The checks that must fail for each flaw (nil: the app without a flaw), advice included: the
    /// tutorial sends no PKCE, so `request.pkce` fails as advice in every run.
    static func expectedFailures(_ flaw: TutorialApp.Flaw?) -> Set<CheckID> {
        flawFailures(flaw).union([.requestPKCE])
    }

    static func flawFailures(_ flaw: TutorialApp.Flaw?) -> Set<CheckID> {
        switch flaw {
        case nil: []
        case .noStateCheck: [.callbackState]
        case .stateNotBound: [.callbackStateBound]
        // The form's id_token is taken instead of the token response's, so no token fault is seen,
        // and with no code redeemed there is no refresh token to revoke on deletion.
        case .formTokenTrusted: tokenChecks.union([.callbackFormIdentityToken, .deleteRevoke])
        case .audienceNotChecked: [.tokenWrongAudience]
        case .expiredAccepted: [.tokenExpired]
        case .nonceIgnored: [.tokenNonce, .callbackCodeInjection]
        // An injected code's token carries the attacker's nonce, which is compared: only a missing nonce passes.
        case .nonceOptional: [.tokenNonce]
        case .algNoneAccepted: [.tokenAlgNone]
        case .userEmailTrusted: [.trustUserEmail]
        case .replayable: [.callbackReplay]
        // The genuine notification still ends the session: only the forgeries tell, and its repeat, acted on again.
        case .notificationsUnverified:
            Set(CheckID.allCases.filter { $0.rawValue.hasPrefix("notify.") && $0 != .notifyBaseline }).union([.driftNotificationRedelivery])
        case .neverRevokesOnDelete: [.deleteRevoke]
        case .requiresVerifiedEmail: [.trustManagedAccount]
        case .emailKeptOnDelete: [.deleteSignInAgain]
        case .keysCachedForever: [.driftKeyRotation]
        case .issuerFromDiscovery: [.driftIssuerFlip]
        case .relayDomainHardcoded: [.driftRelayDomain]
        case .deletionSpelledOneWay: [.driftDeletionSpelling]
        case .redeliveryRefused: [.driftNotificationRedelivery]
        }
    }

    /// The flaws only drift checks catch, as advice: the app works on today's traffic.
    static let adviceFlaws: Set<TutorialApp.Flaw?> = [.keysCachedForever, .deletionSpelledOneWay, .redeliveryRefused]

    /// The checks a flaw keeps from running: without a revocation the next sign-in is no first one,
    /// and an app that signs no one in any more leaves the drift checks nothing to compare.
    static func notRun(_ flaw: TutorialApp.Flaw?) -> [CheckID] {
        switch flaw {
        case .formTokenTrusted, .neverRevokesOnDelete: [.deleteSignInAgain]
        // drift.boolean-claims reads the sides signed in before the deletion; drift.relay-domain signs in a new Apple ID.
        case .emailKeptOnDelete: AppChecker.driftChecks.filter { ![.driftBooleanClaims, .driftRelayDomain].contains($0) }
        default: []
        }
    }

    @Test("the flaw is named by its checks, and every other check that ran passed", arguments: [nil] + TutorialApp.Flaw.allCases)
    func caught(flaw: TutorialApp.Flaw?) async throws {
        let results = try await Self.check(flaw)
        let failed = Set(results.filter { $0.outcome == .failed }.map(\.check))
        #expect(failed == Self.expectedFailures(flaw), "\(results.filter { $0.outcome == .failed }.map { "\($0.check.rawValue): \($0.detail)" })")
        // Each flaw fails a required check, so the run, but a drift's (advice); the app without one passes with its advice.
        #expect(CheckReport(results: results, seconds: 0).failed == (flaw != nil && !Self.adviceFlaws.contains(flaw)))
        // Every check ran (the notifications and deletion URLs are given), but those the flaw keeps from running.
        #expect(results.filter { $0.outcome == .notRun }.map(\.check) == Self.notRun(flaw))
        #expect(results.count == CheckID.allCases.count)
    }

    @Test(
        "without a probe, --signed-in-when judges the callback's page: the sound app passes, a missing state check is caught",
        arguments: [(nil, "body:signed in as"), (nil, "redirect:/me"), (TutorialApp.Flaw.noStateCheck, "body:signed in as")])
    func signedInWhen(flaw: TutorialApp.Flaw?, argument: String) async throws {
        let results = try await Self.check(flaw, signedInWhen: try #require(SignedInTest(argument: argument)))
        let failed = Set(results.filter { $0.outcome == .failed }.map(\.check))
        #expect(failed == Self.expectedFailures(flaw), "\(results.filter { $0.outcome == .failed }.map { "\($0.check.rawValue): \($0.detail)" })")
        // A session ended by a notification cannot be seen without a probe: never a pass.
        #expect(
            results.filter { $0.outcome == .notRun }.map(\.check) == AppChecker.notificationChecks + [
                .driftDeletionSpelling, .driftNotificationRedelivery,
            ])
    }

    @Test(
        "a start page that signs in with Sign in with Apple JS is read as its script would send the request",
        arguments: [(nil, "/login-js"), (nil, "/login-js?init"), (TutorialApp.Flaw.noStateCheck, "/login-js")])
    func scriptedStartPage(flaw: TutorialApp.Flaw?, start: String) async throws {
        let results = try await Self.check(flaw, start: start)
        let failed = Set(results.filter { $0.outcome == .failed }.map(\.check))
        #expect(failed == Self.expectedFailures(flaw), "\(results.filter { $0.outcome == .failed }.map { "\($0.check.rawValue): \($0.detail)" })")
        #expect(results.filter { $0.outcome == .notRun }.map(\.check) == Self.notRun(flaw))
    }

    @Test("a baseline that fails says why from the server's side: a client secret under an unknown Key ID")
    func baselineDiagnosis() async throws {
        let results = try await Self.check(nil, keyID: "WRONGKEY00")
        let baseline = try #require(results.first { $0.check == .callbackBaseline })
        #expect(baseline.outcome == .failed)
        #expect(baseline.detail.contains("refused the app's /auth/token with invalid_client"), "\(baseline.detail)")
        #expect(baseline.detail.contains("fix the client secret"), "\(baseline.detail)")
        // Nothing after the baseline is judged, notifications and deletion included: not run, never passed.
        #expect(results.count == CheckID.allCases.count)
        #expect(results.drop { $0.check != .callbackBaseline }.dropFirst().allSatisfy { $0.outcome == .notRun })
    }

    /// A school with a student without e-mail that allows no app: the check must allow the app itself.
    static func addSchool(to apple: AppleIDEmulator) async throws {
        let school = try await apple.createOrganization()
        try await apple.createManagedUser(username: "s.student@appleid.school.example.edu", in: school)
        try await apple.disallowApp(in: school)
    }

    /// Runs every check against a tutorial app with `flaw`, on an emulated Apple ID server.
    static func check(
        _ flaw: TutorialApp.Flaw?, identityTokens: TutorialApp.IdentityTokens = .both, codeBinding: TutorialApp.CodeBinding = .nonce,
        keyID: String? = nil, signedInWhen: SignedInTest? = nil, start: String = "/login"
    ) async throws -> [CheckResult] {
        try await withAppleIDEmulator { apple in
            try await apple.createUser(appleID: "attacker@example.com", firstName: "Eve", lastName: "Attacker")
            try await Self.addSchool(to: apple)
            let app = TutorialApp(
                flaw: flaw, identityTokens: identityTokens, codeBinding: codeBinding,
                settings: .init(
                    server: apple.baseURL, clientID: apple.servicesID, primaryAppID: apple.bundleID, teamID: apple.credentials.teamID,
                    keyID: keyID ?? apple.credentials.keyID,
                    privateKeyPEM: apple.credentials.privateKeyPEM))
            return try await app.serve { base in
                try await apple.addReturnURL(app.redirectURI)
                var options = CheckOptions(
                    start: base + start, probe: base + "/me", server: apple.baseURL, adminToken: apple.adminToken,
                    victim: apple.defaultUser.appleID, attacker: "attacker@example.com")
                if var test = signedInWhen {
                    if case .redirect(let path) = test { test = .redirect(base + path) }
                    options.probe = ""
                    options.signedInWhen = test
                }
                options.notifications = base + "/notifications"
                options.delete = base + "/delete"
                // Longer than the app's token timeout (5 s): an app that waits it out signs in late.
                options.timeoutDelay = 10
                // No real waiting: the tutorial app refetches /auth/keys every time, or never.
                return await AppChecker(options: options, wait: { _ in }).run()
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
