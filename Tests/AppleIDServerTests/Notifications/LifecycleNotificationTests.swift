import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import JWTKit
import Logging
import SignInWithApple
import Testing

@Suite("Account lifecycle: each user action sends exactly Apple's notification")
struct LifecycleNotificationTests {
    static let endpoint = "https://juice.example.com/apple/notifications"

    /// A server whose user has authorized the app group (hiding the e-mail), with an endpoint registered.
    static func authorizedServer(configure: (inout ProviderConfiguration) -> Void = { _ in }) async throws -> (TestServer, AppleIDAccount, String) {
        let server = try await TestServer.make(configure: configure)
        try await server.arrange.plantNotificationEndpoint(endpoint)
        let request = AuthorizationRequest(
            clientID: TestServer.servicesID.rawValue, redirectURI: TestServer.redirectURI, responseType: "code", responseMode: "form_post",
            scope: "name email")
        guard
            case .answered(let answer) = try await server.provider.authorizeHeadless(
                request, appleID: TestServer.maria.appleID, choices: ConsentChoices(firstName: "Maria", lastName: "Ruiz", hideEmail: true))
        else { throw LifecycleError.unknownAccount("maria") }
        let user = try AuthorizedUser(jsonString: try #require(answer["user"]))
        let relay = try #require(user.email)
        let account = try #require(try await server.provider.lookUpAccount(appleID: TestServer.maria.appleID))
        return (server, account, relay)
    }

    /// Delivers what is due and verifies each body with the kit's notification verifier against the server's keys.
    static func deliverAndVerify(_ server: TestServer, sender: RecordingSender = RecordingSender()) async throws -> [AppleNotification] {
        let delivery = NotificationDelivery(provider: server.provider, sender: sender, logger: Logger(label: "test"))
        try await delivery.deliverDueMessages()
        let verifier = NotificationVerifier(
            environment: .custom(baseURL: TestServer.issuer), audiences: [TestServer.bundleID.rawValue, TestServer.servicesID.rawValue],
            keys: AppleKeySet(jwksJSON: server.provider.keyRing.publishedKeySetJSON), clock: { server.clock.now() })
        let jwtKit = JWTKeyCollection()
        try await jwtKit.add(jwksJSON: String(decoding: server.provider.keyRing.publishedKeySetJSON, as: UTF8.self))
        var notifications: [AppleNotification] = []
        for body in sender.bodies {
            let notification = try await verifier.verify(body: body)
            // A second, independent verifier: jwt-kit against the same published keys.
            let payload = try #require(try JSONDecoder().decode([String: String].self, from: Data(body))["payload"])
            let claims = try await jwtKit.verify(payload, as: JWTKitNotification.self)
            #expect(claims.aud.value == [notification.audience])
            #expect(claims.exp.value.timeIntervalSince1970 - claims.iat.value.timeIntervalSince1970 == 86_400)
            let events = try JSONSerialization.jsonObject(with: Data(claims.events.utf8)) as? [String: Any]
            #expect(events?["type"] as? String == notification.events.first?.type.rawValue)
            #expect(events?["sub"] as? String == notification.events.first?.subject)
            notifications.append(notification)
        }
        return notifications
    }

    /// The notification JWT as jwt-kit reads it: `events` must be a JSON string, as in Apple's traffic.
    struct JWTKitNotification: JWTPayload {
        var iss: IssuerClaim
        var aud: AudienceClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        var jti: IDClaim
        var events: String

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    static func subject(_ server: TestServer, _ account: AppleIDAccount) async throws -> String {
        try #require(try await server.teamIdentity(of: account)).subject.rawValue
    }

    @Test("Stop using Apple ID: consent-revoked, tokens revoked, the next sign-in is a first authorization again")
    func stopUsing() async throws {
        let (server, account, _) = try await Self.authorizedServer()
        try await server.provider.lifecycle.stopUsing(accountID: account.id, groupID: TestServer.bundleID)
        let notifications = try await Self.deliverAndVerify(server)
        #expect(notifications.count == 1)
        let event = try #require(notifications.first?.events.first)
        #expect(event.type == .consentRevoked)
        #expect(event.subject == (try await Self.subject(server, account)))
        #expect(event.eventTime == Int64(Fixtures.now.timeIntervalSince1970 * 1000))
        #expect(event.email == nil)
        #expect(notifications.first?.audience == TestServer.bundleID.rawValue)
        #expect(try await server.consent(of: account) == nil)
        let again = try await server.provider.authorizeHeadless(
            AuthorizationRequest(
                clientID: TestServer.servicesID.rawValue, redirectURI: TestServer.redirectURI, responseType: "code", responseMode: "form_post",
                scope: "name email"), appleID: TestServer.maria.appleID)
        guard case .answered(let answer) = again else { throw LifecycleError.unknownAccount("maria") }
        #expect(answer["user"] != nil)
    }

    @Test("relay forwarding off then on: email-disabled then email-enabled, with the relay address and is_private_email \"true\"")
    func relayForwarding() async throws {
        let (server, account, relay) = try await Self.authorizedServer()
        try await server.provider.lifecycle.setRelayForwarding(accountID: account.id, teamID: TestServer.teamID, enabled: false)
        try await server.provider.lifecycle.setRelayForwarding(accountID: account.id, teamID: TestServer.teamID, enabled: false)
        server.clock.advance(by: 1)
        try await server.provider.lifecycle.setRelayForwarding(accountID: account.id, teamID: TestServer.teamID, enabled: true)
        // A pass posts a group's messages concurrently (each event is a POST of its own, and the spec
        // names no order between them): a receiver orders them by event_time, which must differ here.
        let events = try await Self.deliverAndVerify(server).flatMap(\.events).sorted { $0.eventTime < $1.eventTime }
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
        let (server, account, _) = try await Self.authorizedServer { $0.accountDeletionEvent = spelling }
        try await server.provider.lifecycle.deleteAccount(accountID: account.id)
        let events = try await Self.deliverAndVerify(server).flatMap(\.events)
        #expect(events.map(\.type) == [spelling])
        #expect(events.first?.type.isAccountDeletion == true)
        let signIn = try await server.provider.authorizeHeadless(
            AuthorizationRequest(clientID: TestServer.servicesID.rawValue, redirectURI: TestServer.redirectURI, responseType: "code"),
            appleID: TestServer.maria.appleID)
        guard case .unknownAppleID = signIn else {
            Issue.record("a deleted Apple ID signed in")
            return
        }
    }

    @Test("the primary App ID's quirk switch chooses the deletion spelling over the server's")
    func deletionSpellingPerApp() async throws {
        let (server, account, _) = try await Self.authorizedServer()
        var primary = try #require(try await server.provider.registeredClient(TestServer.bundleID))
        primary.quirks.deletionEvent = .accountDeleted
        try await server.arrange.plant(primary)
        try await server.provider.lifecycle.deleteAccount(accountID: account.id)
        let events = try await Self.deliverAndVerify(server).flatMap(\.events)
        #expect(events.map(\.type) == [.accountDeleted])
    }

    @Test("the JWT is Apple's shape: exp = iat + 86400, events a JSON string, header kid + alg")
    func payloadShape() async throws {
        let (server, account, _) = try await Self.authorizedServer()
        try await server.provider.lifecycle.stopUsing(accountID: account.id, groupID: TestServer.bundleID)
        let sender = RecordingSender()
        _ = try await Self.deliverAndVerify(server, sender: sender)
        let body = try #require(sender.bodies.first)
        let envelope = try JSONDecoder().decode([String: String].self, from: Data(body))
        let parts = try #require(envelope["payload"]).split(separator: ".").map(String.init)
        let header = String(decoding: try Base64URL.decode(parts[0]), as: UTF8.self)
        #expect(header == #"{"kid":"\#(server.provider.keyRing.activeKeyID)","alg":"RS256"}"#)
        let claims = try #require(try JSONSerialization.jsonObject(with: Data(try Base64URL.decode(parts[1]))) as? [String: Any])
        #expect((claims["exp"] as? Int).map { $0 - (claims["iat"] as? Int ?? 0) } == 86_400)
        #expect(claims["events"] is String)
        #expect((claims["jti"] as? String)?.count == 22)
        #expect(sender.urls == [Self.endpoint])
    }
}
