import AppleIDProtocol
import AppleIDProvider
import Foundation
import SignInWithApple
import SignInWithAppleTesting
import Testing

@Suite("Kit against the emulated Apple ID server: native flow, key rotation, JWKS outage", .timeLimit(.minutes(5)))
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

    @Test("completeNativeSignIn, as in its DocC snippet: the App ID's code exchanged with the App ID, name kept, grant to store")
    func completeNativeSignIn() async throws {
        try await withAppleIDEmulator { apple in
            // A backend that also serves the web: the native code must still go out with the App ID.
            let siwa = try apple.makeClient()
            let rawNonce = "raw-nonce-from-the-app"
            let credential = try await apple.nativeCredential(as: apple.defaultUser.appleID, nonce: Nonce(raw: rawNonce, convention: .sha256))
            let body = (identityToken: try #require(credential.idToken), authorizationCode: try #require(credential.code))
            let result = try await siwa.completeNativeSignIn(
                identityToken: body.identityToken, authorizationCode: body.authorizationCode, rawNonce: rawNonce,
                user: .init(firstName: "Emma", lastName: "Apple"))
            #expect(result.identity.audience == apple.bundleID)
            #expect(result.grant?.clientID == apple.bundleID)
            #expect(result.profile?.name?.firstName == "Emma")
            guard case .refreshed(let refreshed, _) = try await siwa.refresh(try #require(result.grant)) else {
                Issue.record("the native grant refreshes with the App ID")
                return
            }
            #expect(refreshed.subject == result.identity.subject)

            // The raw nonce of another sign-in is refused before the code is spent.
            let other = try await apple.nativeCredential(as: apple.defaultUser.appleID, nonce: Nonce(raw: "n2", convention: .sha256))
            await #expect(throws: IdentityTokenError.nonceMismatch) {
                try await siwa.completeNativeSignIn(
                    identityToken: try #require(other.idToken), authorizationCode: try #require(other.code), rawNonce: rawNonce)
            }
        }
    }

    @Test("after two rotations the kit meets an unknown kid, refetches the key set once and verifies")
    func keyRotation() async throws {
        try await withAppleIDEmulator { apple in
            let clock = KitClock()
            let transport = ObservedTransport()
            let siwa = try SignInWithAppleClient(configuration: apple.clientConfiguration(), transport: transport, clock: clock.now)
            _ = try await apple.signIn(as: apple.defaultUser.appleID, with: siwa)
            #expect(transport.keyFetches == 1)

            try await apple.rotateKeys()
            _ = try await apple.signIn(as: apple.defaultUser.appleID, with: siwa)
            #expect(transport.keyFetches == 1, "the new signing key was published before it signed")

            try await apple.rotateKeys()
            clock.advance(by: 61)
            let result = try await apple.signIn(as: apple.defaultUser.appleID, with: siwa)
            #expect(transport.keyFetches == 2)
            #expect(result.identity.keyID == apple.signingKeyID)
        }
    }

    @Test("during a JWKS outage the cached keys keep verifying; an unseen kid is refused, not guessed")
    func outage() async throws {
        try await withAppleIDEmulator { apple in
            let clock = KitClock()
            let transport = ObservedTransport()
            let siwa = try SignInWithAppleClient(configuration: apple.clientConfiguration(), transport: transport, clock: clock.now)
            _ = try await apple.signIn(as: apple.defaultUser.appleID, with: siwa)

            transport.setKeysDown(true)
            clock.advance(by: 120)
            let during = try await apple.signIn(as: apple.defaultUser.appleID, with: siwa)
            #expect(!during.identity.subject.isEmpty)

            try await apple.rotateKeys()
            try await apple.rotateKeys()
            clock.advance(by: 120)
            await #expect(throws: IdentityTokenError.self) { try await apple.signIn(as: apple.defaultUser.appleID, with: siwa) }

            transport.setKeysDown(false)
            clock.advance(by: 120)
            let recovered = try await apple.signIn(as: apple.defaultUser.appleID, with: siwa)
            #expect(recovered.identity.keyID == apple.signingKeyID)
        }
    }
}
