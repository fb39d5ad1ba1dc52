import AppleIDProtocol
import AppleIDProvider
import Foundation
import SignInWithApple
import SignInWithAppleTesting
import Testing

@Suite("Kit against the emulated Apple ID server: web flow", .timeLimit(.minutes(5)))
struct EndToEndWebFlowTests {
    @Test("start, approve as a user hiding the e-mail, accept the callback, finish in the same browser: identity, name, grant")
    func webFlow() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let browser = BrowserBinding.random()
            let pending = try await siwa.startSignIn(browser: browser)
            #expect(pending.url.hasPrefix(apple.baseURL + "/auth/authorize?"))
            #expect(pending.url.contains("response_mode=form_post"))
            #expect(pending.codeVerifier != nil)

            let choices = ConsentChoices(firstName: "Emma", lastName: "A.", hideEmail: true)
            let callback = try await apple.approve(pending, as: apple.defaultUser.appleID, choices: choices)
            let token = try await siwa.acceptCallback(callback)
            let result = try await siwa.finishSignIn(completionToken: token, browser: browser)
            #expect(result.isFirstAuthorization)
            #expect(result.profile?.name == .init(firstName: "Emma", lastName: "A."))
            #expect(result.profile?.unsignedEmailDiffered == false)
            #expect(result.identity.isPrivateEmail)
            #expect(result.identity.emailVerified == true)
            #expect(result.identity.audience == apple.servicesID)
            #expect(result.identity.realUserStatus == .likelyReal)
            #expect(result.grant?.clientID == apple.servicesID)

            let second = try await apple.signIn(as: apple.defaultUser.appleID, with: siwa)
            #expect(!second.isFirstAuthorization)
            #expect(second.identity.subject == result.identity.subject)
        }
    }

    @Test("single use: a replayed callback, a second completion and a completion in another browser are refused")
    func replay() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let browser = BrowserBinding.random()
            let callback = try await apple.approve(try await siwa.startSignIn(browser: browser), as: apple.defaultUser.appleID)
            let token = try await siwa.acceptCallback(callback)
            await #expect(throws: CallbackError.unknownState) { try await siwa.acceptCallback(callback) }
            await #expect(throws: CallbackError.otherBrowser) { try await siwa.finishSignIn(completionToken: token, browser: .random()) }
            // The refused completion is gone: not even the right browser can use it now.
            await #expect(throws: CallbackError.unknownCompletion) { try await siwa.finishSignIn(completionToken: token, browser: browser) }

            let other = BrowserBinding.random()
            let second = try await apple.approve(try await siwa.startSignIn(browser: other), as: apple.defaultUser.appleID)
            await #expect(throws: CallbackError.otherBrowser) { try await siwa.completeSignIn(second, browser: browser) }
        }
    }

    @Test("a completion that waited past its lifetime is refused and revoked: the next sign-in is a first authorization")
    func expiredCompletion() async throws {
        try await withAppleIDEmulator(clock: ManualClock(Date())) { apple in
            let siwa = try apple.makeClient()
            let browser = BrowserBinding.random()
            let token = try await siwa.acceptCallback(
                try await apple.approve(try await siwa.startSignIn(browser: browser), as: apple.defaultUser.appleID))
            apple.advanceClock(by: siwa.configuration.completionLifetime + 1)
            await #expect(throws: CallbackError.unknownCompletion) { try await siwa.finishSignIn(completionToken: token, browser: browser) }
            #expect(try await apple.signIn(as: apple.defaultUser.appleID, with: siwa).isFirstAuthorization)
        }
    }

    @Test("an e-mail in the unsigned user field that differs from the token's is dropped and flagged")
    func forgedUserEmail() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let browser = BrowserBinding.random()
            var callback = try await apple.approve(try await siwa.startSignIn(browser: browser), as: apple.defaultUser.appleID)
            callback.user?.email = "attacker@example.net"
            let result = try await siwa.completeSignIn(callback, browser: browser)
            #expect(result.profile?.unsignedEmailDiffered == true)
            #expect(result.profile?.name?.firstName == "Emma")
            #expect(result.identity.email == apple.defaultUser.email)
        }
    }

    @Test("the state storage is sealed: keys are hashes, values do not contain the state, nonce or verifier")
    func sealedStorage() async throws {
        try await withAppleIDEmulator { apple in
            let storage = RecordingStorage()
            let siwa = try apple.makeClient(storage: storage)
            let pending = try await siwa.startSignIn(browser: .random())
            let (key, value) = try #require(await storage.inserted.first)
            #expect(!key.contains(pending.state))
            let text = String(decoding: value, as: UTF8.self)
            for secret in [pending.state, pending.nonce.raw, try #require(pending.codeVerifier)] { #expect(!text.contains(secret)) }
        }
    }

    @Test("refresh and revoke by grant: refreshed, then revoked, and the next sign-in is a first one again")
    func refreshAndRevoke() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let first = try await apple.signIn(as: apple.defaultUser.appleID, with: siwa)
            let grant = try #require(first.grant)
            guard case .refreshed(let identity, _) = try await siwa.refresh(grant) else {
                Issue.record("expected refreshed")
                return
            }
            #expect(identity.subject == first.identity.subject)
            #expect(identity.authenticatedAt == nil)

            try await siwa.revoke(grant)
            guard case .revoked(let refusal) = try await siwa.refresh(grant) else {
                Issue.record("expected revoked")
                return
            }
            #expect(refusal.code == .invalidGrant)
            #expect(refusal.errorDescription == "The token has expired or has been revoked.")
            #expect(refusal.status == 400)
            #expect(try await apple.signIn(as: apple.defaultUser.appleID, with: siwa).isFirstAuthorization)
        }
    }
}

/// Memory storage that also records what was inserted.
actor RecordingStorage: SignInWithAppleStorage {
    let base = MemorySignInWithAppleStorage()
    var inserted: [(String, [UInt8])] = []

    func insert(_ value: [UInt8], forKey key: String, expiresAt: Date, now: Date) async throws -> Bool {
        inserted.append((key, value))
        return try await base.insert(value, forKey: key, expiresAt: expiresAt, now: now)
    }

    func take(_ key: String) async throws -> StoredEntry? { try await base.take(key) }
}
