import AppleIDProvider
import ServerTestSupport
import Testing

/// The server's delivery service over the same set-up: `Tests/AppleIDServerAppTests/Notifications/NotificationDeliveryServiceTests`.
@Suite("Notification delivery across teams: a slow endpoint delays only its own team")
struct DeliveryFairnessTests {
    @Test(
        "with an endpoint that never answers and many messages pending for team A, team B's message is delivered in the first pass, without waiting for A",
        .timeLimit(.minutes(5)))
    func slowTeamDoesNotStarveOthers() async throws {
        let (server, revoked, sender, delivery) = try await StarvedDelivery.make(pending: 60)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await delivery.deliverDueMessages() }
            for await url in sender.answered where url == StarvedDelivery.otherEndpoint { break }
            #expect(sender.finished(StarvedDelivery.slowEndpoint) == 0, "B was answered while every post to A still hangs")
            sender.openGate()
            try await group.waitForAll()
        }
        #expect(try await server.outboxMessage(id: revoked.id)?.deliveredAt != nil)
        #expect(
            sender.started(StarvedDelivery.slowEndpoint) <= NotificationDelivery.Policy().budgetPerGroup, "one pass tries A only within its budget")
    }
}
