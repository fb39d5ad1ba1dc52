import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import AppleIDServerApp
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServerTestSupport
import SignInWithApple
import Synchronization
import Testing

@Suite("Notification delivery over HTTP to a receiver on 127.0.0.1", .timeLimit(.minutes(5)))
struct LoopbackReceiverTests {
    /// Answers 500, 500, then 200, and keeps what it received.
    final class Receiver: Sendable {
        let received = Mutex<[[UInt8]]>([])

        func router() -> Router<BasicRequestContext> {
            let router = Router()
            router.post("/apple/notifications") { request, _ -> Response in
                let body = Array(buffer: try await request.body.collect(upTo: 64 * 1024))
                let count = self.received.withLock { received in
                    received.append(body)
                    return received.count
                }
                return Response(status: count <= 2 ? .internalServerError : .ok)
            }
            return router
        }
    }

    @Test("fails twice, then 200: delivered, three attempts logged, the payload verifies with the kit")
    func receiverOnLoopback() async throws {
        let (server, account) = try await Self.authorized()
        let receiver = Receiver()
        try await LoopbackServer.run(receiver.router()) { port in
            _ = try await server.provider.setNotificationEndpoint(
                "http://127.0.0.1:\(port)/apple/notifications", groupID: TestEngine.bundleID, teamID: TestEngine.teamID)

            try await server.provider.lifecycle.stopUsing(accountID: account.id, groupID: TestEngine.bundleID)
            let delivery = NotificationDelivery(provider: server.provider, sender: HTTPNotificationSender(), logger: Logger(label: "test"))
            for _ in 0..<3 {
                #expect(try await delivery.deliverDueMessages() == 1)
                server.clock.advance(by: 3600)
            }
            #expect(try await delivery.deliverDueMessages() == 0)
        }
        let (message, attempts) = try await server.provider.newestDelivery()
        #expect(message.deliveredAt != nil)
        #expect(attempts.map(\.status) == [500, 500, 200])
        #expect(attempts.allSatisfy { $0.endpoint.hasPrefix("http://127.0.0.1:") })

        let verifier = NotificationVerifier(
            environment: .custom(baseURL: TestEngine.issuer), audiences: [TestEngine.bundleID.rawValue],
            keys: AppleKeySet(jwksJSON: server.provider.keyRing.publishedKeySetJSON), clock: { server.clock.now() })
        let last = try #require(receiver.received.withLock { $0.last })
        let notification = try await verifier.verify(body: last)
        #expect(notification.events.map(\.type) == [.consentRevoked])
        #expect(notification.id == message.id)
    }

    /// An engine whose user has authorized the app group (hiding the e-mail), with an endpoint registered.
    static func authorized() async throws -> (TestEngine, AppleIDAccount) {
        let server = try await TestEngine.make()
        let (account, _) = try await server.authorizeMaria()
        return (server, account)
    }

    /// Delivers the server's one pending message to `endpoint` over HTTP; returns its attempt.
    static func attempt(to endpoint: String, server: TestEngine, accountID: String) async throws -> DeliveryAttempt {
        _ = try await server.provider.setNotificationEndpoint(endpoint, groupID: TestEngine.bundleID, teamID: TestEngine.teamID)
        try await server.provider.lifecycle.stopUsing(accountID: accountID, groupID: TestEngine.bundleID)
        // A closed port is retried by the client until the request's deadline: keep that short.
        var policy = NotificationDelivery.Policy()
        policy.requestTimeout = 2
        let delivery = NotificationDelivery(
            provider: server.provider, sender: HTTPNotificationSender(), policy: policy, logger: Logger(label: "test"))
        #expect(try await delivery.deliverDueMessages() == 1)
        return try #require(try await server.provider.newestDelivery().attempts.last)
    }

    @Test("a redirect is not followed: the attempt is 'HTTP 302', not delivered, and the redirect's target is never asked")
    func redirectNotFollowed() async throws {
        let (server, account) = try await Self.authorized()
        let targetHits = Mutex(0)
        let router = Router()
        router.post("/apple/notifications") { _, _ in
            Response(status: .found, headers: [.location: "/internal/secret"])
        }
        router.on("/internal/secret", method: .get) { _, _ -> Response in
            targetHits.withLock { $0 += 1 }
            return Response(status: .ok)
        }
        router.post("/internal/secret") { _, _ -> Response in
            targetHits.withLock { $0 += 1 }
            return Response(status: .ok)
        }
        let attempt = try await LoopbackServer.run(router) { port in
            try await Self.attempt(to: "http://127.0.0.1:\(port)/apple/notifications", server: server, accountID: account.id)
        }
        #expect(attempt.status == 302)
        #expect(attempt.error == "HTTP 302")
        #expect(!attempt.succeeded)
        #expect(targetHits.withLock { $0 } == 0)
        #expect(try await server.provider.newestDelivery().message.deliveredAt == nil)
    }

    @Test("a closed port is logged only as 'could not connect', never the client's precise error")
    func closedPortIsCoarse() async throws {
        let (server, account) = try await Self.authorized()
        let port = try await LoopbackServer.closedPort()
        let attempt = try await Self.attempt(to: "http://127.0.0.1:\(port)/apple/notifications", server: server, accountID: account.id)
        #expect(attempt.status == nil)
        #expect(attempt.error == "could not connect")
    }

    @Test("https to a port that speaks plain HTTP is logged only as 'TLS error'")
    func tlsFailureIsCoarse() async throws {
        let (server, account) = try await Self.authorized()
        let attempt = try await LoopbackServer.run(Router()) { port in
            try await Self.attempt(to: "https://127.0.0.1:\(port)/apple/notifications", server: server, accountID: account.id)
        }
        #expect(attempt.status == nil)
        #expect(attempt.error == "TLS error")
    }

    @Test("the sender connects to the checked address while the Host header keeps the endpoint's name")
    func senderPinsCheckedAddress() async throws {
        let hosts = Mutex<[String]>([])
        let router = Router()
        router.post("/apple/notifications") { request, _ -> Response in
            hosts.withLock { $0.append(request.head.authority ?? "") }
            return Response(status: .ok)
        }
        let status = try await LoopbackServer.run(router) { port in
            // `.invalid` never resolves (RFC 6761): only the pinned address can be reached.
            let destination = NotificationDestination(
                url: "http://receiver.invalid:\(port)/apple/notifications", host: "receiver.invalid",
                address: EndpointAddress(ipv4: 127, 0, 0, 1))
            return try await HTTPNotificationSender().post(Array("{}".utf8), to: destination, timeout: 5)
        }
        #expect(status == 200)
        #expect(hosts.withLock { $0.map { $0.hasPrefix("receiver.invalid:") } } == [true])
    }
}
