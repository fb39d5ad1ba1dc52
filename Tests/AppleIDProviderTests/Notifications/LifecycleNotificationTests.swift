import AppleIDProtocol
import AppleIDProvider
import Foundation
import ServerTestSupport
import SignInWithApple
import Testing

@Suite("Account lifecycle: each user action sends exactly Apple's notification")
struct LifecycleNotificationTests {
    static func subject(_ server: TestEngine, _ account: AppleIDAccount) async throws -> String {
        try #require(try await server.teamIdentity(of: account)).subject.rawValue
    }

    @Test("Stop using Apple ID: consent-revoked, tokens revoked, the next sign-in is a first authorization again")
    func stopUsing() async throws {
        let (server, account, _) = try await TestEngine.authorized()
        try await server.provider.lifecycle.stopUsing(accountID: account.id, groupID: TestEngine.bundleID)
        let notifications = try await server.deliverAndVerify()
        #expect(notifications.count == 1)
        let event = try #require(notifications.first?.events.first)
        #expect(event.type == .consentRevoked)
        #expect(event.subject == (try await Self.subject(server, account)))
        #expect(event.eventTime == Int64(Fixtures.now.timeIntervalSince1970 * 1000))
        #expect(event.email == nil)
        #expect(notifications.first?.audience == TestEngine.bundleID.rawValue)
        #expect(try await server.consent(of: account) == nil)
        let again = try await server.provider.authorizeHeadless(
            AuthorizationRequest(
                clientID: TestEngine.servicesID.rawValue, redirectURI: TestEngine.redirectURI, responseType: "code", responseMode: "form_post",
                scope: "name email"), appleID: TestEngine.maria.appleID)
        guard case .answered(let answer) = again else { throw LifecycleError.unknownAccount("maria") }
        #expect(answer.issued?.user != nil)
    }

    @Test("relay forwarding off then on: email-disabled then email-enabled, with the relay address and is_private_email \"true\"")
    func relayForwarding() async throws {
        let (server, account, relay) = try await TestEngine.authorized()
        try await server.provider.lifecycle.setRelayForwarding(accountID: account.id, teamID: TestEngine.teamID, enabled: false)
        try await server.provider.lifecycle.setRelayForwarding(accountID: account.id, teamID: TestEngine.teamID, enabled: false)
        server.clock.advance(by: 1)
        try await server.provider.lifecycle.setRelayForwarding(accountID: account.id, teamID: TestEngine.teamID, enabled: true)
        // A pass posts a group's messages concurrently (each event is a POST of its own, and the spec
        // names no order between them): a receiver orders them by event_time, which must differ here.
        let events = try await server.deliverAndVerify().flatMap(\.events).sorted { $0.eventTime < $1.eventTime }
        #expect(events.map(\.type) == [.emailDisabled, .emailEnabled])
        let times = events.map(\.eventTime)
        #expect(times.count == 2 && times[1] - times[0] == 1000)
        #expect(events.allSatisfy { $0.email == relay && $0.isPrivateEmail == BooleanClaim(true, style: .string) })
    }

    @Test(
        "Delete Apple ID: the deletion event (spelling switchable), everything revoked, no more sign-in",
        arguments: [
            NotificationEventType.accountDelete, .accountDeleted,
        ])
    func deleteAccount(spelling: NotificationEventType) async throws {
        let (server, account, _) = try await TestEngine.authorized { $0.accountDeletionEvent = spelling }
        try await server.provider.lifecycle.deleteAccount(accountID: account.id)
        let events = try await server.deliverAndVerify().flatMap(\.events)
        #expect(events.map(\.type) == [spelling])
        #expect(events.first?.type.isAccountDeletion == true)
        let signIn = try await server.provider.authorizeHeadless(
            AuthorizationRequest(clientID: TestEngine.servicesID.rawValue, redirectURI: TestEngine.redirectURI, responseType: "code"),
            appleID: TestEngine.maria.appleID)
        guard case .unknownAppleID = signIn else {
            Issue.record("a deleted Apple ID signed in")
            return
        }
    }

    @Test("the primary App ID's quirk switch chooses the deletion spelling over the server's")
    func deletionSpellingPerApp() async throws {
        let (server, account, _) = try await TestEngine.authorized()
        var primary = try #require(try await server.provider.registeredClient(TestEngine.bundleID))
        primary.quirks.deletionEvent = .accountDeleted
        try await server.arrange.plant(primary)
        try await server.provider.lifecycle.deleteAccount(accountID: account.id)
        let events = try await server.deliverAndVerify().flatMap(\.events)
        #expect(events.map(\.type) == [.accountDeleted])
    }

    @Test("the JWT is Apple's shape: exp = iat + 86400, events a JSON string, header kid + alg")
    func payloadShape() async throws {
        let (server, account, _) = try await TestEngine.authorized()
        try await server.provider.lifecycle.stopUsing(accountID: account.id, groupID: TestEngine.bundleID)
        let sender = RecordingSender()
        _ = try await server.deliverAndVerify(sender: sender)
        let body = try #require(sender.bodies.first)
        let envelope = try JSONDecoder().decode([String: String].self, from: Data(body))
        let parts = try #require(envelope["payload"]).split(separator: ".").map(String.init)
        let header = String(decoding: try Base64URL.decode(parts[0]), as: UTF8.self)
        #expect(header == #"{"kid":"\#(server.provider.keyRing.activeKeyID)","alg":"RS256"}"#)
        let claims = try #require(try JSONSerialization.jsonObject(with: Data(try Base64URL.decode(parts[1]))) as? [String: Any])
        #expect((claims["exp"] as? Int).map { $0 - (claims["iat"] as? Int ?? 0) } == 86_400)
        #expect(claims["events"] is String)
        #expect((claims["jti"] as? String)?.count == 22)
        #expect(sender.urls == [TestEngine.notificationEndpoint])
    }
}
