import Foundation
import Testing

@testable import SignInWithApple

/// Security audit finding 10, in the kit: the audience and issuer match byte for byte, not under
/// Unicode canonical equivalence (U+212A KELVIN SIGN equals "K" to Swift's `String ==` and `Set`).
@Suite("Kit: audiences and issuers are matched byte for byte")
struct ByteExactAudienceTests {
    @Test("a token for com.example.\\u{212A}iosk is not a token for com.example.Kiosk")
    func kelvinAudience() async throws {
        let now = AttackTokenTests.now
        let verifier = IdentityTokenVerifier(
            environment: .production, audiences: ["com.example.Kiosk"], keys: AttackTokenTests.keySet, leeway: 60,
            clock: { Date(timeIntervalSince1970: TimeInterval(now)) })
        #expect(Set(["com.example.Kiosk"]).contains("com.example.\u{212A}iosk"), "what Swift's Set says")
        let forged = VerifierSupport.sign(
            header: AttackTokenTests.header, claims: VerifierSupport.claims(now: now, audience: "com.example.\u{212A}iosk"),
            with: VerifierSupport.key1)
        await #expect(throws: IdentityTokenError.wrongAudience("com.example.\u{212A}iosk")) { try await verifier.verify(forged) }
        let genuine = VerifierSupport.sign(
            header: AttackTokenTests.header, claims: VerifierSupport.claims(now: now, audience: "com.example.Kiosk"), with: VerifierSupport.key1)
        #expect(try await verifier.verify(genuine).audience == "com.example.Kiosk")
    }
}
