import AppleIDProtocol
import AppleIDProvider
import Foundation
import Logging
import ServerTestSupport
import Testing

@Suite("Notification delivery with several instances: one deliverer per message, at least once")
struct DeliveryLeaseTests {
    static func delivery(_ server: TestEngine, _ sender: RecordingSender, instance: String) -> NotificationDelivery {
        NotificationDelivery(provider: server.provider, sender: sender, logger: Logger(label: instance), leaseHolder: instance)
    }

    @Test("two instances delivering the same outbox at once post each message once")
    func twoInstancesAtOnce() async throws {
        let (server, account, _) = try await TestEngine.authorized()
        try await server.provider.lifecycle.deleteAccount(accountID: account.id)
        let queued = try await server.outbox()
        #expect(!queued.isEmpty)
        let sender = RecordingSender()
        let a = Self.delivery(server, sender, instance: "a")
        let b = Self.delivery(server, sender, instance: "b")
        async let byA = a.deliverDueMessages()
        async let byB = b.deliverDueMessages()
        let (countA, countB) = try await (byA, byB)
        #expect(countA + countB == queued.count)
        #expect(sender.bodies.count == queued.count, "no message was posted twice")
        #expect(try await server.outbox().allSatisfy { $0.deliveredAt != nil })
    }

    @Test("a message leased by an instance that died is delivered by another once the lease runs out")
    func takeOverAfterCrash() async throws {
        let (server, account, _) = try await TestEngine.authorized()
        try await server.provider.lifecycle.stopUsing(accountID: account.id, groupID: TestEngine.bundleID)
        // The dead instance's pass: it leased the message and never recorded an attempt.
        #expect(try await server.arrange.leaseDueMessages(holder: "dead") == 1)
        let sender = RecordingSender()
        let survivor = Self.delivery(server, sender, instance: "survivor")
        #expect(try await survivor.deliverDueMessages() == 0)
        server.clock.advance(by: 60)
        #expect(try await survivor.deliverDueMessages() == 1)
        #expect(sender.bodies.count == 1)
    }

    @Test("after a pass, and when handed back at shutdown, an instance holds no lease")
    func leasesHandedBack() async throws {
        let (server, account, _) = try await TestEngine.authorized()
        try await server.provider.lifecycle.stopUsing(accountID: account.id, groupID: TestEngine.bundleID)
        let a = Self.delivery(server, RecordingSender(statuses: [500]), instance: "a")
        #expect(try await a.deliverDueMessages() == 1)
        #expect(try await server.arrange.releaseLeases(holder: "a") == 0, "the pass handed its lease back")
        server.clock.advance(by: 3600)
        #expect(try await server.arrange.leaseDueMessages(holder: "b") == 1)
    }
}
