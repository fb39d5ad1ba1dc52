import AppleIDDevelopmentFaults
import AppleIDProtocol
import Crypto
import Foundation
import Testing
import _CryptoExtras

@testable import AppleIDProvider

/// The notifications `siwa check` delivers to an app (issue 20): signed by the server's key as the
/// delivery signs them, for a user of a client, handed back rather than queued, development mode only.
@Suite("Engine: development notifications for siwa check")
struct DevelopmentNotificationTests {
    static let client: ClientID = "com.a.app.web"

    static func harness(developmentMode: Bool = true) async throws -> ProviderHarness {
        let harness = try await ProviderHarness.make { $0.developmentMode = developmentMode }
        _ = try await harness.authorize(group: "com.a.app", hideEmail: false)
        return harness
    }

    /// The claims, and whether the server's active key signed them.
    static func decode(_ notification: DevelopmentNotification, harness: ProviderHarness) throws -> (NotificationClaims, Bool) {
        let parts = notification.payload.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let claims = try JSONDecoder().decode(NotificationClaims.self, from: Data(try Base64URL.decode(parts[1])))
        let signed = harness.provider.keyRing.activeKey.publicKey.isValidSignature(
            _RSA.Signing.RSASignature(rawRepresentation: try Base64URL.decode(parts[2])),
            for: SHA256.hash(data: Array((parts[0] + "." + parts[1]).utf8)),
            padding: .insecurePKCS1v1_5)
        return (claims, signed)
    }

    @Test("a genuine consent-revoked names the user's team-scoped sub, the group's aud, and verifies with the active key")
    func genuine() async throws {
        let harness = try await Self.harness()
        let subject = try harness.claims(try await harness.authorize(group: "com.a.app", hideEmail: false)).subject.rawValue
        let notification = try await harness.provider.developmentNotification(appleID: "maria@example.com", clientID: Self.client)
        let (claims, signed) = try Self.decode(notification, harness: harness)
        let now = Int(harness.clock.now().timeIntervalSince1970)
        #expect(claims.audience == "com.a.app" && claims.issuer == "https://id.example.com" && claims.jwtID == notification.jwtID)
        #expect(claims.events.map(\.type) == [.consentRevoked] && claims.events.first?.subject == subject)
        #expect(claims.issuedAt == now && claims.expiresAt == now + 86_400)
        #expect(signed)
        #expect(try await harness.store.outboxUsage(groupID: "com.a.app", createdSince: .distantPast).pending == 0, "handed back, never queued")
    }

    @Test("each fault spoils one claim and keeps the server's signature", arguments: NotificationFault.allCases)
    func faults(fault: NotificationFault) async throws {
        let harness = try await Self.harness()
        let notification = try await harness.provider.developmentNotification(appleID: "maria@example.com", clientID: Self.client, fault: fault)
        let (claims, signed) = try Self.decode(notification, harness: harness)
        let now = Int(harness.clock.now().timeIntervalSince1970)
        switch fault {
        case .wrongAudience: #expect(claims.audience != "com.a.app" && claims.audience != Self.client.rawValue)
        case .expired: #expect(try #require(claims.expiresAt) < now - 300)
        }
        #expect(claims.events.first.map { Int($0.eventTime / 1000) } == now, "the event itself is fresh")
        #expect(signed)
    }

    @Test("outside development mode, or for an Apple ID the client never saw, it is refused")
    func refusals() async throws {
        let production = try await Self.harness(developmentMode: false)
        await #expect(throws: ConsoleError.self) {
            try await production.provider.developmentNotification(appleID: "maria@example.com", clientID: Self.client)
        }
        let harness = try await Self.harness()
        await #expect(throws: ConsoleError.self) {
            try await harness.provider.developmentNotification(appleID: "maria@example.com", clientID: "com.b.app.web")
        }
        await #expect(throws: ConsoleError.self) {
            try await harness.provider.developmentNotification(appleID: "nobody@example.com", clientID: Self.client)
        }
    }
}
