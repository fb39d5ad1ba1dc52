import AppleIDProtocol
import AppleIDProvider
import Foundation
import JWTKit
import Logging
import SignInWithApple
import Testing

/// Lifecycle notifications as the server's and the engine's tests arrange and read them.
extension EngineFixture {
    /// The app group's notification endpoint in ``authorizeMaria()``.
    package static var notificationEndpoint: String { "https://juice.example.com/apple/notifications" }

    /// The endpoint's host resolving to a public address (outside development mode it must).
    package static var publicJuice: StaticEndpointAddressResolver {
        StaticEndpointAddressResolver(["juice.example.com": [EndpointAddress(ipv4: 93, 184, 216, 34)]])
    }

    /// Maria authorizes the app group (hiding her e-mail), which has an endpoint registered: answers
    /// her account and her relay address.
    package func authorizeMaria() async throws -> (AppleIDAccount, String) {
        try await arrange.plantNotificationEndpoint(Self.notificationEndpoint)
        let request = AuthorizationRequest(
            clientID: Self.servicesID.rawValue, redirectURI: Self.redirectURI, responseType: "code", responseMode: "form_post",
            scope: "name email")
        guard
            case .answered(let answer) = try await provider.authorizeHeadless(
                request, appleID: Self.maria.appleID, choices: ConsentChoices(firstName: "Maria", lastName: "Ruiz", hideEmail: true))
        else { throw LifecycleError.unknownAccount("maria") }
        let user = try #require(answer.issued?.user)
        let relay = try #require(user.email)
        let account = try #require(try await provider.lookUpAccount(appleID: Self.maria.appleID))
        return (account, relay)
    }

    /// Delivers what is due and verifies each body with the kit's notification verifier against the server's keys.
    package func deliverAndVerify(sender: RecordingSender = RecordingSender()) async throws -> [AppleNotification] {
        let delivery = NotificationDelivery(provider: provider, sender: sender, logger: Logger(label: "test"))
        try await delivery.deliverDueMessages()
        let clock = clock
        let verifier = NotificationVerifier(
            environment: .custom(baseURL: Self.issuer), audiences: [Self.bundleID.rawValue, Self.servicesID.rawValue],
            keys: AppleKeySet(jwksJSON: provider.keyRing.publishedKeySetJSON), clock: { clock.now() })
        let jwtKit = JWTKeyCollection()
        try await jwtKit.add(jwksJSON: String(decoding: provider.keyRing.publishedKeySetJSON, as: UTF8.self))
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
}

/// The notification JWT as jwt-kit reads it: `events` must be a JSON string, as in Apple's traffic.
private struct JWTKitNotification: JWTPayload {
    var iss: IssuerClaim
    var aud: AudienceClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim
    var jti: IDClaim
    var events: String

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

extension TestEngine {
    /// An engine whose user has authorized the app group (hiding the e-mail), with an endpoint
    /// registered: the engine, maria's account and her relay address.
    package static func authorized(configure: (inout ProviderConfiguration) -> Void = { _ in }) async throws -> (TestEngine, AppleIDAccount, String) {
        let engine = try await make(configure: configure)
        let (account, relay) = try await engine.authorizeMaria()
        return (engine, account, relay)
    }
}
