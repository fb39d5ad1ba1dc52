import AppleIDProtocol
import Foundation
import SignInWithApple
import Testing

/// When a notification may still be acted on, and which sign-ins its events speak about.
@Suite("Notifications: the replay window without exp, and events older than a sign-in")
struct NotificationTimingTests {
    static let now = AttackTokenTests.now
    static let events = "{\"type\":\"consent-revoked\",\"sub\":\"001234.x.0001\",\"event_time\":1699999999000}"

    static func verifier() -> NotificationVerifier {
        NotificationVerifier(
            environment: .production, audiences: [AttackTokenTests.audience], keys: AttackTokenTests.keySet,
            clock: { Date(timeIntervalSince1970: TimeInterval(now)) })
    }

    /// A notification without `exp`, issued at `issuedAt`.
    static func notification(issuedAt: Int) -> String {
        let claims: [String: Any] = [
            "iss": AttackTokenTests.issuer, "aud": AttackTokenTests.audience, "iat": issuedAt, "jti": "j-\(issuedAt)", "events": events,
        ]
        return VerifierSupport.sign(header: AttackTokenTests.header, claims: claims, with: AttackTokenTests.key)
    }

    @Test("a notification without exp is refused once iat is older than the replay window (its jti may be forgotten by then)")
    func noExpiryPastTheReplayWindow() async throws {
        let issuedAt = Self.now - 86_400 - 3_600
        let error = await VerifierSupport.failure { try await Self.verifier().verify(payload: Self.notification(issuedAt: issuedAt)) }
        #expect(error as? IdentityTokenError == .expired(expiresAt: issuedAt + 86_400, now: Self.now))
    }

    @Test("a notification without exp is accepted within the replay window")
    func noExpiryWithinTheReplayWindow() async throws {
        let notification = try await Self.verifier().verify(payload: Self.notification(issuedAt: Self.now - 3_600))
        #expect(notification.expiresAt == nil)
        #expect(notification.events.first?.type == .consentRevoked)
    }

    @Test("an event that happened before a sign-in began does not end it; one at or after it does")
    func eventsOlderThanTheSignIn() {
        let signedInAt = Date(timeIntervalSince1970: 1_700_000_000)
        let milliseconds = Int64(signedInAt.timeIntervalSince1970 * 1000)
        let stale = NotificationEvent(type: .consentRevoked, subject: "001234.x.0001", eventTime: milliseconds - 1_000)
        let fresh = NotificationEvent(type: .consentRevoked, subject: "001234.x.0001", eventTime: milliseconds + 1_000)
        let sameInstant = NotificationEvent(type: .consentRevoked, subject: "001234.x.0001", eventTime: milliseconds)
        let inSeconds = NotificationEvent(type: .consentRevoked, subject: "001234.x.0001", eventTime: Int64(signedInAt.timeIntervalSince1970) - 1)
        #expect(!stale.appliesToSignIn(begunAt: signedInAt), "queued before the sign-in: it speaks about an earlier one")
        #expect(!inSeconds.appliesToSignIn(begunAt: signedInAt), "Apple's documented seconds read the same")
        #expect(fresh.appliesToSignIn(begunAt: signedInAt))
        #expect(sameInstant.appliesToSignIn(begunAt: signedInAt), "a tie ends the sign-in: the safe side")
    }
}
