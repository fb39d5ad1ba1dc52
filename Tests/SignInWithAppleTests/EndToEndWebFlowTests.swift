import AppleIDProtocol
import AppleIDProvider
import Foundation
import SignInWithApple
import SignInWithAppleTesting
import Testing

@Suite("Kit against the emulated Apple ID server: web flow", .timeLimit(.minutes(2)))
struct EndToEndWebFlowTests {
    @Test("start, approve as a user hiding the e-mail, complete: verified identity, first-authorization user, tokens")
    func webFlow() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try SignInWithAppleClient(configuration: apple.clientConfiguration())
            let pending = try await siwa.startSignIn()
            #expect(pending.url.hasPrefix(apple.baseURL + "/auth/authorize?"))
            #expect(pending.url.contains("response_mode=form_post"))
            #expect(pending.codeVerifier != nil)

            let choices = ConsentChoices(firstName: "Emma", lastName: "A.", hideEmail: true)
            let callback = try await apple.approve(pending, as: apple.defaultUser.appleID, choices: choices)
            let result = try await siwa.completeSignIn(callback)
            #expect(result.isFirstAuthorization)
            #expect(result.user?.name == .init(firstName: "Emma", lastName: "A."))
            #expect(result.identity.email == result.user?.email)
            #expect(result.identity.isPrivateEmail)
            #expect(result.identity.emailVerified == true)
            #expect(result.identity.audience == apple.servicesID)
            #expect(result.identity.realUserStatus == .likelyReal)
            #expect(result.tokens.refreshToken != nil)

            let again = try await siwa.startSignIn()
            let second = try await siwa.completeSignIn(try await apple.approve(again, as: apple.defaultUser.appleID))
            #expect(!second.isFirstAuthorization)
            #expect(second.identity.subject == result.identity.subject)
        }
    }

    @Test("a replayed callback is refused: the state is single use")
    func replay() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try SignInWithAppleClient(configuration: apple.clientConfiguration())
            let pending = try await siwa.startSignIn()
            let callback = try await apple.approve(pending, as: apple.defaultUser.appleID)
            _ = try await siwa.completeSignIn(callback)
            await #expect(throws: CallbackError.unknownState) { try await siwa.completeSignIn(callback) }
        }
    }

    @Test("refresh gives a verifiable id_token; revoke ends the authorization and the next sign-in is a first one again")
    func refreshAndRevoke() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try SignInWithAppleClient(configuration: apple.clientConfiguration())
            let first = try await siwa.completeSignIn(try await apple.approve(try await siwa.startSignIn(), as: apple.defaultUser.appleID))
            let refreshToken = try #require(first.tokens.refreshToken)
            let refreshed = try await siwa.tokens.refresh(refreshToken: refreshToken)
            let identity = try await siwa.verifyIdentityToken(try #require(refreshed.idToken))
            #expect(identity.subject == first.identity.subject)
            #expect(identity.authenticatedAt == nil)

            try await siwa.tokens.revoke(token: refreshToken)
            let refused = await VerifierSupport.failure { try await siwa.tokens.refresh(refreshToken: refreshToken) }
            guard case AppleServiceError.refused(let refusal)? = refused as? AppleServiceError else {
                Issue.record("expected a refusal, got \(String(describing: refused))")
                return
            }
            #expect(refusal.code == .invalidGrant)
            #expect(refusal.errorDescription == "The token has expired or has been revoked.")
            #expect(refusal.status == 400)
            let after = try await siwa.completeSignIn(try await apple.approve(try await siwa.startSignIn(), as: apple.defaultUser.appleID))
            #expect(after.isFirstAuthorization)
        }
    }
}
