import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import Logging
import NIOCore
import SignInWithApple
import Synchronization
import Testing

@Suite("Notification delivery over HTTP to a receiver on 127.0.0.1", .timeLimit(.minutes(2)))
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
        let (server, account, _) = try await LifecycleNotificationTests.authorizedServer()
        let receiver = Receiver()
        let (portStream, portContinuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: receiver.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.runService(gracefulShutdownSignals: []) }
            var port = 0
            for await value in portStream { port = value }
            var appGroup = try #require(try await server.provider.store.appGroup(TestServer.bundleID))
            appGroup.notificationEndpoint = "http://127.0.0.1:\(port)/apple/notifications"
            try await server.provider.store.save(appGroup)

            try await server.provider.lifecycle.stopUsing(accountID: account.id, groupID: TestServer.bundleID)
            let delivery = NotificationDelivery(provider: server.provider, sender: HTTPNotificationSender(), logger: Logger(label: "test"))
            for _ in 0..<3 {
                #expect(try await delivery.deliverDueMessages() == 1)
                server.clock.advance(by: 3600)
            }
            #expect(try await delivery.deliverDueMessages() == 0)
            group.cancelAll()
        }
        let message = try #require(try await server.provider.store.messages(groupID: nil, limit: 1).first)
        #expect(message.deliveredAt != nil)
        let attempts = try await server.provider.store.attempts(messageID: message.id)
        #expect(attempts.map(\.status) == [500, 500, 200])
        #expect(attempts.allSatisfy { $0.endpoint.hasPrefix("http://127.0.0.1:") })

        let verifier = NotificationVerifier(
            environment: .custom(baseURL: TestServer.issuer), audiences: [TestServer.bundleID.rawValue],
            keys: AppleKeySet(jwksJSON: server.provider.keyRing.publishedKeySetJSON), clock: { server.clock.now() })
        let last = try #require(receiver.received.withLock { $0.last })
        let notification = try await verifier.verify(body: last)
        #expect(notification.events.map(\.type) == [.consentRevoked])
        #expect(notification.id == message.id)
    }
}
