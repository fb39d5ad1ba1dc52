import AppleIDProtocol
import AppleIDProvider
import AppleIDServerApp
import ServerTestSupport
import Testing

/// The engine's delivery over the same set-up: `Tests/AppleIDProviderTests/Notifications/DeliveryFairnessTests`.
@Suite("Notification delivery service across teams: a slow endpoint delays only its own team")
struct NotificationDeliveryServiceTests {
    @Test(
        "while a pass still waits on team A's endpoint, the service's next pass delivers team B's new message and posts none of A's twice",
        .timeLimit(.minutes(5)))
    func nextPassDoesNotWaitForSlowOne() async throws {
        let (server, _, sender, delivery) = try await StarvedDelivery.make(pending: 10)
        let service = PeriodicService.notificationDelivery(delivery, interval: .milliseconds(10))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await service.run() }
            var answered = sender.answered.makeAsyncIterator()
            func nextAnswerFromB() async -> Bool {
                while let url = await answered.next() { if url == StarvedDelivery.otherEndpoint { return true } }
                return false
            }
            #expect(await nextAnswerFromB())
            // Written after the first pass began: only a later pass can take it.
            try await server.arrange.plant(
                OutboxMessage(
                    id: "b1", groupID: StarvedDelivery.otherGroup, audience: StarvedDelivery.otherGroup,
                    event: NotificationEvent(type: .consentRevoked, subject: "sub", eventTime: 0), createdAt: server.clock.now()))
            #expect(await nextAnswerFromB(), "B's new message was answered")
            #expect(sender.finished(StarvedDelivery.slowEndpoint) == 0, "A's first posts still hang")
            #expect(sender.started(StarvedDelivery.slowEndpoint) == NotificationDelivery.Policy().budgetPerGroup, "no message of A was posted twice")
            sender.openGate()
            group.cancelAll()
            try await group.waitForAll()
        }
        #expect(try await server.outboxMessage(id: "b1")?.deliveredAt != nil)
    }
}
