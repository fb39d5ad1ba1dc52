import AppleIDProtocol
import Crypto
import Foundation
import SignInWithApple
import SignInWithAppleTesting
import Testing

/// The emulator hands tests the server's precise refusal reasons, while the wire keeps Apple's terse answer.
@Suite("Emulator: the server's refusal reasons reach tests, not the wire", .timeLimit(.minutes(5)))
struct EmulatorRefusalTests {
    /// The refusal a call threw, or nil.
    static func refusal(of body: () async throws -> some Any) async -> AppleRefusal? {
        do {
            _ = try await body()
            return nil
        } catch {
            return (error as? AppleServiceError)?.refusal
        }
    }

    @Test("a reused code: invalid_grant on the wire, the exact reason in the emulator")
    func reusedCode() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let pending = try await siwa.startSignIn(browser: .random())
            let callback = try await apple.approve(pending, as: apple.defaultUser.appleID)
            let code = try #require(callback.code)
            _ = try await siwa.tokens.exchange(code: code, redirectURI: apple.redirectURI, codeVerifier: pending.codeVerifier)
            let refusal = try #require(
                await Self.refusal { try await siwa.tokens.exchange(code: code, redirectURI: apple.redirectURI, codeVerifier: pending.codeVerifier) })
            #expect(refusal.code == .invalidGrant)
            #expect(refusal.errorDescription == AppleErrorDescription.codeAlreadyUsed)
            #expect(!refusal.description.contains("redeemed"), "the server's reason stays off the wire")
            let logged = try #require(apple.lastRefusal(clientID: apple.servicesID))
            #expect(logged.endpoint == "token")
            #expect(logged.error == .invalidGrant)
            // Which code, when it was first redeemed, and what followed; never the code itself.
            let hashPrefix = SHA256.hash(data: Data(code.utf8)).map { String(format: "%02x", $0) }.joined().prefix(8)
            #expect(logged.reason.hasPrefix("the code with SHA-256 \(hashPrefix)… was already redeemed at 20"))
            #expect(logged.reason.hasSuffix("; every token issued from it is now revoked (a reused code means it leaked)"))
            #expect(!logged.reason.contains(code))
        }
    }

    @Test("a secret signed by another key: {\"error\":\"invalid_client\"} on the wire, the reason in the emulator")
    func wrongKey() async throws {
        try await withAppleIDEmulator { apple in
            var configuration = apple.clientConfiguration()
            configuration.credentials.privateKeyPEM = P256.Signing.PrivateKey().pemRepresentation
            let siwa = try SignInWithAppleClient(configuration: configuration)
            let refusal = try #require(await Self.refusal { try await siwa.tokens.exchange(code: "no-such-code", redirectURI: apple.redirectURI) })
            #expect(refusal.code == .invalidClient)
            #expect(refusal.errorDescription == nil, "Apple sends only {\"error\":\"invalid_client\"}")
            #expect(refusal.likelyCauses.contains { $0.contains("the private key is not the one of Key ID") })
            let logged = try #require(apple.lastRefusal(clientID: apple.servicesID))
            #expect(logged.error == .invalidClient)
            #expect(!logged.reason.isEmpty)
            #expect(apple.refusals.count == 1)
        }
    }
}
