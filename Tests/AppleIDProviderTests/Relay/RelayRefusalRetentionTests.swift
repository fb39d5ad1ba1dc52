import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation
import Testing

@Suite("The relay's refusal log is kept as long as the console shows it")
struct RelayRefusalRetentionTests {
    @Test("the hourly purge of expired records drops refusals older than the console's seven days, and keeps the newer")
    func purgeDropsOldRefusals() async throws {
        let relay = try await RelayHarness.make()
        #expect(try await relay.send(from: "spam@elsewhere.com", to: relay.relayAddress).rcpt == 550)
        relay.harness.clock.advance(by: 6 * 86_400)
        #expect(try await relay.send(from: "other@elsewhere.com", to: relay.relayAddress).rcpt == 550)
        relay.harness.clock.advance(by: 86_400 + 1)

        _ = try await relay.relay.purgeExpiredMail()

        let kept = try await relay.harness.store.relayRefusals(teamID: "TEAMAAAAAA", since: .distantPast, limit: 10)
        #expect(kept.map(\.sender) == ["other@elsewhere.com"])
    }

    @Test("relayed mail is purged once older than the retention (30 days by default), the newer kept (issue 35, finding 10)")
    func purgeDropsOldMail() async throws {
        let relay = try await RelayHarness.make()
        #expect(try await relay.send(to: relay.relayAddress) == (250, 250))
        relay.harness.clock.advance(by: 29 * 86_400)
        #expect(try await relay.send(to: relay.relayAddress) == (250, 250))
        relay.harness.clock.advance(by: 86_400 + 1)

        _ = try await relay.relay.purgeExpiredMail()

        let kept = try await relay.relay.mailbox(accountID: relay.accountID)
        #expect(kept.count == 1)
        #expect(kept.first.map { $0.message.receivedAt > relay.harness.clock.now().addingTimeInterval(-30 * 86_400) } == true)
    }
}
