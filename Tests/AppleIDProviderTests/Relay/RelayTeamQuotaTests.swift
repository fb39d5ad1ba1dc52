import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation
import Testing

@Suite("A team's stored relay mail is held to its quota (issue 35, finding 10)")
struct RelayTeamQuotaTests {
    /// What one copy of ``RelayHarness/message`` takes once rewritten and stored.
    static func storedSize() async throws -> Int {
        let relay = try await RelayHarness.make(teamStorageQuota: nil)
        #expect(try await relay.send(to: relay.relayAddress) == (250, 250))
        return try await relay.harness.store.relayStoredBytes(teamID: "TEAMAAAAAA")
    }

    @Test("a message that would pass the quota is refused whole with 452 4.2.2 and logged; under it, mail is taken")
    func refusedPastQuota() async throws {
        let size = try await Self.storedSize()
        #expect(size > 0)
        let relay = try await RelayHarness.make(teamStorageQuota: 2 * size + size / 2)
        #expect(try await relay.send(to: relay.relayAddress) == (250, 250))
        #expect(try await relay.send(to: relay.relayAddress) == (250, 250))

        let reply = try await relay.relay.accept(sender: "news@example.com", recipients: [relay.relayAddress], source: RelayHarness.message)
        #expect(reply.code == 452)
        #expect(reply.lines[0].hasPrefix("4.2.2 "))
        #expect(try await relay.relay.mailbox(accountID: relay.accountID).count == 2)
        let refusals = try await relay.harness.store.relayRefusals(teamID: "TEAMAAAAAA", since: .distantPast, limit: 10)
        #expect(refusals.map(\.sender) == ["news@example.com"])
        #expect(refusals.first?.reply.contains("4.2.2") == true)
    }

    @Test("once the retention purges old mail, the team takes mail again")
    func purgeFreesQuota() async throws {
        let size = try await Self.storedSize()
        let relay = try await RelayHarness.make(teamStorageQuota: size)
        #expect(try await relay.send(to: relay.relayAddress) == (250, 250))
        #expect(try await relay.send(to: relay.relayAddress) == (250, 452))
        relay.harness.clock.advance(by: 30 * 86_400 + 1)
        _ = try await relay.relay.purgeExpiredMail()
        #expect(try await relay.send(to: relay.relayAddress) == (250, 250))
    }

    @Test("without a quota nothing is refused for size")
    func noQuota() async throws {
        let relay = try await RelayHarness.make(teamStorageQuota: nil)
        for _ in 0..<3 { #expect(try await relay.send(to: relay.relayAddress) == (250, 250)) }
    }
}
