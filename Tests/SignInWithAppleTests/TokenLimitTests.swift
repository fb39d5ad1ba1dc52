import AppleIDProtocol
import Foundation
import SignInWithApple
import Testing

/// Checks an outside attack set found missing: `nbf`, empty or absurdly long identifiers, and the
/// size of what the verifier agrees to parse. Every token here is validly signed by the trusted key.
@Suite("Token limits: nbf, claim lengths, token size")
struct TokenLimitTests {
    static let now = AttackTokenTests.now

    static func token(_ changes: [String: Any?]) -> String { AttackTokenTests.token(claims: AttackTokenTests.claims(changes)) }

    static func failure(of token: String) async -> (any Error)? {
        await VerifierSupport.failure { try await AttackTokenTests.verifier().verify(token) }
    }

    @Test("a token whose nbf is beyond the leeway is refused")
    func notBeforeInTheFuture() async {
        let error = await Self.failure(of: Self.token(["nbf": Self.now + 61]))
        #expect(error as? IdentityTokenError == .notYetValid(notBefore: Self.now + 61, now: Self.now))
        #expect(String(describing: error).contains("not valid before"))
    }

    @Test("nbf within the leeway, in the past, or absent is accepted; nbf is kept", arguments: [60, 0, -3600])
    func notBeforeAccepted(offset: Int) async throws {
        let identity = try await AttackTokenTests.verifier().verify(Self.token(["nbf": Self.now + offset]))
        #expect(identity.notBefore == Date(timeIntervalSince1970: TimeInterval(Self.now + offset)))
        #expect(try await AttackTokenTests.verifier().verify(Self.token([:])).notBefore == nil)
    }

    @Test("nbf that is not an integer makes the claims malformed")
    func notBeforeNotAnInteger() async {
        let error = await Self.failure(of: Self.token(["nbf": "\(Self.now)"]))
        #expect(error as? IdentityTokenError == .malformed("the claims are not an identity token's (iss, aud, exp, iat, sub)"))
    }

    @Test("an empty sub is refused")
    func emptySubject() async {
        let error = await Self.failure(of: Self.token(["sub": ""]))
        #expect(error as? IdentityTokenError == .claimLengthOutOfBounds(claim: "sub", bytes: 0))
        #expect(String(describing: error).contains("sub is empty"))
    }

    @Test("a sub over 255 bytes is refused")
    func longSubject() async {
        let error = await Self.failure(of: Self.token(["sub": String(repeating: "a", count: 256)]))
        #expect(error as? IdentityTokenError == .claimLengthOutOfBounds(claim: "sub", bytes: 256))
        #expect(String(describing: error).contains("sub is 256 bytes"))
    }

    @Test("a sub of exactly 255 bytes is accepted")
    func longestSubject() async throws {
        let subject = String(repeating: "a", count: TokenLimits.maximumIdentifierBytes)
        #expect(try await AttackTokenTests.verifier().verify(Self.token(["sub": subject])).subject == subject)
    }

    @Test("an aud or iss over 255 bytes is refused before it is compared", arguments: ["aud", "iss"])
    func longIdentifier(claim: String) async {
        let error = await Self.failure(of: Self.token([claim: String(repeating: "x", count: 300)]))
        #expect(error as? IdentityTokenError == .claimLengthOutOfBounds(claim: claim, bytes: 300))
    }

    @Test("a token over 16 KiB is refused before anything is decoded, and the error says so")
    func oversizedToken() async {
        let padding = String(repeating: "x", count: 16 * 1024)
        let token = Self.token(["padding": padding])
        let error = await Self.failure(of: token)
        #expect(error as? IdentityTokenError == .tooLarge(bytes: token.utf8.count, limit: 16_384))
        #expect(String(describing: error).contains("16384"))
        // Not even split: a "token" of 20 KiB without a single dot is refused for its size.
        let garbage = String(repeating: "A", count: 20 * 1024)
        #expect(await Self.failure(of: garbage) as? IdentityTokenError == .tooLarge(bytes: 20 * 1024, limit: 16_384))
    }

    @Test("a token of 16 KiB is still read")
    func largestToken() async throws {
        let base = Self.token(["padding": ""])
        // Each padding character adds 4/3 base64 characters to the payload segment; trim to the limit.
        var padding = (TokenLimits.maximumTokenBytes - base.utf8.count) * 3 / 4
        var token = Self.token(["padding": String(repeating: "x", count: padding)])
        while token.utf8.count > TokenLimits.maximumTokenBytes {
            padding -= 1
            token = Self.token(["padding": String(repeating: "x", count: padding)])
        }
        #expect(token.utf8.count > TokenLimits.maximumTokenBytes - 4)
        _ = try await AttackTokenTests.verifier().verify(token)
    }

    @Test("a notification verifier holds its tokens and bodies to the same limits")
    func notificationLimits() async {
        let verifier = NotificationVerifier(
            environment: .production, audiences: [AttackTokenTests.audience], keys: AttackTokenTests.keySet,
            clock: { Date(timeIntervalSince1970: TimeInterval(AttackTokenTests.now)) })
        let events = "{\"type\":\"consent-revoked\",\"sub\":\"001234.x.0001\",\"event_time\":1699999999000}"
        func notification(_ changes: [String: Any]) -> String {
            let claims: [String: Any] = [
                "iss": AttackTokenTests.issuer, "aud": AttackTokenTests.audience, "iat": Self.now, "jti": "j1", "events": events,
            ]
            return VerifierSupport.sign(header: AttackTokenTests.header, claims: claims.merging(changes) { $1 }, with: AttackTokenTests.key)
        }
        let early = await VerifierSupport.failure { try await verifier.verify(payload: notification(["nbf": Self.now + 120])) }
        #expect(early as? IdentityTokenError == .notYetValid(notBefore: Self.now + 120, now: Self.now))
        let emptySubject = events.replacingOccurrences(of: "001234.x.0001", with: "")
        let empty = await VerifierSupport.failure { try await verifier.verify(payload: notification(["events": emptySubject])) }
        #expect(empty as? IdentityTokenError == .claimLengthOutOfBounds(claim: "sub", bytes: 0))
        let body = Array("{\"payload\":\"\(String(repeating: "A", count: 20_000))\"}".utf8)
        let large = await VerifierSupport.failure { try await verifier.verify(body: body) }
        #expect(large as? IdentityTokenError == .tooLarge(bytes: body.count, limit: NotificationVerifier.maximumBodyBytes))
    }
}
