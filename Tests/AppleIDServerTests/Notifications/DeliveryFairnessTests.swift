import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Logging
import Testing

@Suite("Notification delivery across teams: a slow endpoint delays only its own team")
struct DeliveryFairnessTests {
    static let slowEndpoint = "https://slow.example.com/apple"
    static let otherGroup: ClientID = "com.other.app"
    static let otherEndpoint = "https://other.example.com/apple"

    /// Team A (the Juice group) with `pending` test notifications to an endpoint that never answers,
    /// all older than team B's one `consent-revoked`; with a delivery through a ``GatedSender`` that
    /// holds every post to A.
    static func starved(pending: Int) async throws -> (TestServer, OutboxMessage, GatedSender, NotificationDelivery) {
        let server = try await TestServer.make()
        try await server.arrange.plantNotificationEndpoint(slowEndpoint)
        try await server.arrange.plant(
            AppGroup(primaryAppID: otherGroup, teamID: TestServer.otherTeamID, displayName: "Other", notificationEndpoint: otherEndpoint))
        for index in 0..<pending {
            try await server.arrange.plant(
                OutboxMessage(
                    id: "a\(index)", groupID: TestServer.bundleID, audience: TestServer.bundleID,
                    event: NotificationEvent(type: .test, subject: NotificationEvent.testSubject, eventTime: 0),
                    createdAt: server.clock.now().addingTimeInterval(Double(index) - 600)))
        }
        let revoked = OutboxMessage(
            id: "b0", groupID: otherGroup, audience: otherGroup, event: NotificationEvent(type: .consentRevoked, subject: "sub", eventTime: 0),
            createdAt: server.clock.now())
        try await server.arrange.plant(revoked)
        let sender = GatedSender(hangingURL: slowEndpoint)
        return (server, revoked, sender, NotificationDelivery(provider: server.provider, sender: sender, logger: Logger(label: "test")))
    }

    @Test(
        "with an endpoint that never answers and many messages pending for team A, team B's message is delivered in the first pass, without waiting for A",
        .timeLimit(.minutes(5)))
    func slowTeamDoesNotStarveOthers() async throws {
        let (server, revoked, sender, delivery) = try await Self.starved(pending: 60)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await delivery.deliverDueMessages() }
            for await url in sender.answered where url == Self.otherEndpoint { break }
            #expect(sender.finished(Self.slowEndpoint) == 0, "B was answered while every post to A still hangs")
            sender.openGate()
            try await group.waitForAll()
        }
        #expect(try await server.outboxMessage(id: revoked.id)?.deliveredAt != nil)
        #expect(sender.started(Self.slowEndpoint) <= NotificationDelivery.Policy().budgetPerGroup, "one pass tries A only within its budget")
    }

    @Test(
        "while a pass still waits on team A's endpoint, the service's next pass delivers team B's new message and posts none of A's twice",
        .timeLimit(.minutes(5)))
    func nextPassDoesNotWaitForSlowOne() async throws {
        let (server, _, sender, delivery) = try await Self.starved(pending: 10)
        let service = PeriodicService.notificationDelivery(delivery, interval: .milliseconds(10))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await service.run() }
            var answered = sender.answered.makeAsyncIterator()
            func nextAnswerFromB() async -> Bool {
                while let url = await answered.next() { if url == Self.otherEndpoint { return true } }
                return false
            }
            #expect(await nextAnswerFromB())
            // Written after the first pass began: only a later pass can take it.
            try await server.arrange.plant(
                OutboxMessage(
                    id: "b1", groupID: Self.otherGroup, audience: Self.otherGroup,
                    event: NotificationEvent(type: .consentRevoked, subject: "sub", eventTime: 0), createdAt: server.clock.now()))
            #expect(await nextAnswerFromB(), "B's new message was answered")
            #expect(sender.finished(Self.slowEndpoint) == 0, "A's first posts still hang")
            #expect(sender.started(Self.slowEndpoint) == NotificationDelivery.Policy().budgetPerGroup, "no message of A was posted twice")
            sender.openGate()
            group.cancelAll()
            try await group.waitForAll()
        }
        #expect(try await server.outboxMessage(id: "b1")?.deliveredAt != nil)
    }
}
