import AppleIDProtocol
import AppleIDProvider
import Foundation
import SignInWithApple
import SignInWithAppleTesting
import Testing

@Suite("Kit against the emulated Apple ID server: native flow, key rotation, JWKS outage", .timeLimit(.minutes(2)))
struct EndToEndKeysAndNativeTests {
    @Test("native-style: the app's credential (hashed nonce, c_hash) verifies; its code is redeemed without redirect_uri")
    func nativeFlow() async throws {
        try await withAppleIDEmulator { apple in
            let backend = try SignInWithAppleClient(configuration: apple.nativeClientConfiguration())
            let nonce = Nonce(raw: "raw-nonce-from-the-app", convention: .sha256)
            let credential = try await apple.nativeCredential(as: apple.defaultUser.appleID, nonce: nonce)
            let code = try #require(credential.code)
            let identityToken = try #require(credential.idToken)
            #expect(credential.user?.email == apple.defaultUser.email)

            let identity = try await backend.identityTokens.verify(identityToken, nonce: nonce, authorizationCode: code)
            #expect(identity.audience == apple.bundleID)
            #expect(identity.claims.nonce == nonce.transmittedValue)
            // The raw nonce given as plain: the token carries its hash, and the error says so.
            await #expect(throws: IdentityTokenError.nonceConventionMismatch(expected: .plain)) {
                try await backend.identityTokens.verify(identityToken, nonce: Nonce(raw: "raw-nonce-from-the-app"))
            }
            await #expect(throws: IdentityTokenError.nonceMismatch) {
                try await backend.identityTokens.verify(identityToken, nonce: Nonce(raw: "another-nonce", convention: .sha256))
            }

            let tokens = try await backend.tokens.exchange(code: code, redirectURI: nil)
            let exchanged = try await backend.identityTokens.verify(try #require(tokens.idToken), accessToken: tokens.accessToken)
            #expect(exchanged.subject == identity.subject)
        }
    }

    @Test("after two rotations the kit meets an unknown kid, refetches the key set once and verifies")
    func keyRotation() async throws {
        try await withAppleIDEmulator { apple in
            let clock = KitClock()
            let transport = ObservedTransport()
            let siwa = try SignInWithAppleClient(configuration: apple.clientConfiguration(), transport: transport, clock: clock.now)
            _ = try await siwa.completeSignIn(try await apple.approve(try await siwa.startSignIn(), as: apple.defaultUser.appleID))
            #expect(transport.keyFetches == 1)

            try await apple.provider.rotateSigningKeys()
            _ = try await siwa.completeSignIn(try await apple.approve(try await siwa.startSignIn(), as: apple.defaultUser.appleID))
            #expect(transport.keyFetches == 1, "the new signing key was published before it signed")

            try await apple.provider.rotateSigningKeys()
            clock.advance(by: 61)
            let result = try await siwa.completeSignIn(try await apple.approve(try await siwa.startSignIn(), as: apple.defaultUser.appleID))
            #expect(transport.keyFetches == 2)
            #expect(result.identity.keyID == apple.provider.keyRing.activeKeyID.rawValue)
        }
    }

    @Test("during a JWKS outage the cached keys keep verifying; an unseen kid is refused, not guessed")
    func outage() async throws {
        try await withAppleIDEmulator { apple in
            let clock = KitClock()
            let transport = ObservedTransport()
            let siwa = try SignInWithAppleClient(configuration: apple.clientConfiguration(), transport: transport, clock: clock.now)
            _ = try await siwa.completeSignIn(try await apple.approve(try await siwa.startSignIn(), as: apple.defaultUser.appleID))

            transport.setKeysDown(true)
            clock.advance(by: 120)
            let during = try await siwa.completeSignIn(try await apple.approve(try await siwa.startSignIn(), as: apple.defaultUser.appleID))
            #expect(!during.identity.subject.isEmpty)

            try await apple.provider.rotateSigningKeys()
            try await apple.provider.rotateSigningKeys()
            clock.advance(by: 120)
            let pending = try await siwa.startSignIn()
            let callback = try await apple.approve(pending, as: apple.defaultUser.appleID)
            await #expect(throws: IdentityTokenError.self) { try await siwa.completeSignIn(callback) }

            transport.setKeysDown(false)
            clock.advance(by: 120)
            let recovered = try await siwa.completeSignIn(try await apple.approve(try await siwa.startSignIn(), as: apple.defaultUser.appleID))
            #expect(recovered.identity.keyID == apple.provider.keyRing.activeKeyID.rawValue)
        }
    }
}
