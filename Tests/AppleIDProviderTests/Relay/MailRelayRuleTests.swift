import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation
import Testing

@Suite("The private relay's rules (spec §11)")
struct MailRelayRuleTests {
    @Test("a registered sender's mail lands in the Apple ID's mailbox, from a reply alias, and says nothing of the real address")
    func forward() async throws {
        let relay = try await RelayHarness.make()
        #expect(try await relay.send(to: relay.relayAddress.uppercased()) == (250, 250))
        let mail = try #require(try await relay.relay.mailbox(accountID: relay.accountID).first)
        #expect(mail.message.destination == "maria@example.com")
        #expect(mail.message.recipient == relay.relayAddress)
        #expect(mail.message.subject == "Weekly")
        #expect(mail.delivery.state == .mailbox)
        #expect(mail.message.envelopeSender.hasPrefix("news_at_example_com_"))
        #expect(mail.message.envelopeSender.hasSuffix("@privaterelay.appleid.com"))
        let detail = try #require(try await relay.relay.message(id: mail.message.id))
        #expect(detail.headers.first { $0.name == "From" }?.value == "\"Example News\" <\(mail.message.envelopeSender)>")
        #expect(detail.headers.filter { $0.name == "From" }.count == 1, "the original From is gone")
        #expect(detail.body == "Hello!\r\n")
        #expect(try await relay.relay.messages(.address(relay.relayAddress)).map(\.message.id) == [mail.message.id])
    }

    @Test("a sender that is not an e-mail source of the team is refused: 550, sender not registered")
    func unregisteredSender() async throws {
        let relay = try await RelayHarness.make()
        let reply = try await relay.relay.checkRecipient(relay.relayAddress, sender: "spam@elsewhere.com")
        #expect(reply.code == 550)
        #expect(reply.lines[0].contains("Sender not registered for this relay"))
        #expect(try await relay.send(from: "shop@example.org", to: relay.relayAddress) == (250, 250), "a registered address")
        #expect(try await relay.send(from: "other@example.org", to: relay.relayAddress).rcpt == 550, "only that address of its domain")
        #expect(try await relay.send(from: "news@mail.example.com", to: relay.relayAddress).rcpt == 550, "the domain exactly (spec §11)")
    }

    @Test("with forwarding turned off the address refuses mail; turned on again it takes it")
    func forwardingOff() async throws {
        let relay = try await RelayHarness.make()
        try await relay.harness.provider.lifecycle.setRelayForwarding(accountID: relay.accountID, teamID: "TEAMAAAAAA", enabled: false)
        let reply = try await relay.relay.checkRecipient(relay.relayAddress, sender: "news@example.com")
        #expect(reply.code == 550)
        #expect(reply.lines[0].contains("turned off forwarding"))
        try await relay.harness.provider.lifecycle.setRelayForwarding(accountID: relay.accountID, teamID: "TEAMAAAAAA", enabled: true)
        #expect(try await relay.send(to: relay.relayAddress) == (250, 250))
    }

    @Test("forwarding turned off between RCPT and the end of DATA: the message is refused, not stored")
    func forwardingOffDuringData() async throws {
        let relay = try await RelayHarness.make()
        #expect(try await relay.relay.checkRecipient(relay.relayAddress, sender: "news@example.com").code == 250)
        try await relay.harness.provider.lifecycle.setRelayForwarding(accountID: relay.accountID, teamID: "TEAMAAAAAA", enabled: false)
        let reply = try await relay.relay.accept(sender: "news@example.com", recipients: [relay.relayAddress], source: RelayHarness.message)
        #expect(reply.code == 550)
        #expect(try await relay.relay.messages(.all).isEmpty)
    }

    @Test("the 101st message of a day is a 4xx naming the limit; a day later the address takes mail again")
    func dailyLimit() async throws {
        let relay = try await RelayHarness.make()
        for _ in 0..<100 { #expect(try await relay.send(to: relay.relayAddress) == (250, 250)) }
        let reply = try await relay.relay.checkRecipient(relay.relayAddress, sender: "news@example.com")
        #expect(reply.code == 452)
        #expect(reply.lines[0].contains("Daily limit of 100 messages"))
        relay.harness.clock.advance(by: 86_400)
        #expect(try await relay.send(to: relay.relayAddress) == (250, 250))
    }

    @Test(
        "other domains are not relayed, and unknown relay addresses do not exist",
        arguments: [
            ("someone@example.com", "5.7.1 Relaying denied"), ("nobody12345@privaterelay.appleid.com", "5.1.1"),
        ])
    func notRelayed(recipient: String, text: String) async throws {
        let relay = try await RelayHarness.make()
        let reply = try await relay.relay.checkRecipient(recipient, sender: "news@example.com")
        #expect(reply.code == 550)
        #expect(reply.lines[0].hasPrefix(text))
    }

    @Test("the user's reply to the alias goes to the original sender from the relay address; the real address appears nowhere")
    func replyRoutesBack() async throws {
        let relay = try await RelayHarness.make()
        _ = try await relay.send(to: relay.relayAddress)
        let alias = try #require(try await relay.relay.mailbox(accountID: relay.accountID).first).message.envelopeSender
        let answer = Array(
            "From: Maria Ruiz <maria@example.com>\r\nTo: \(alias)\r\nReceived: from laptop (maria@example.com)\r\nSubject: Re: Weekly\r\n\r\nThanks\r\n"
                .utf8)
        #expect(try await relay.send(from: "Maria@Example.com", to: alias, source: answer) == (250, 250))
        let reply = try #require(try await relay.relay.messages(.address("news@example.com")).first)
        #expect(reply.message.direction == .reply)
        #expect(reply.message.envelopeSender == relay.relayAddress)
        #expect(reply.delivery.state == .held, "no smarthost: kept for the admin API")
        let detail = try #require(try await relay.relay.message(id: reply.message.id))
        let source = String(decoding: detail.source, as: UTF8.self)
        #expect(!source.lowercased().contains("maria@example.com"))
        #expect(detail.headers.first { $0.name == "From" }?.value == "<\(relay.relayAddress)>")
        #expect(detail.headers.first { $0.name == "To" }?.value == "<news@example.com>")

        #expect(try await relay.send(from: "mallory@example.com", to: alias, source: answer).rcpt == 550, "only the Apple ID replies")
        #expect(try await relay.relay.messages(.address("news@example.com")).count == 1)
    }

    @Test("every message from one sender to one relay address comes from the same alias")
    func stableAlias() async throws {
        let relay = try await RelayHarness.make()
        _ = try await relay.send(to: relay.relayAddress)
        _ = try await relay.send(to: relay.relayAddress)
        _ = try await relay.send(from: "shop@example.org", to: relay.relayAddress)
        let senders = try await relay.relay.mailbox(accountID: relay.accountID).map(\.message.envelopeSender)
        #expect(senders.count == 3)
        #expect(senders[1] == senders[2])
        #expect(senders[0] != senders[1])
        #expect(senders[0].hasPrefix("shop_at_example_org_"))
    }

    @Test("a wait returns as soon as a matching message lands")
    func waitForMail() async throws {
        let relay = try await RelayHarness.make()
        let waiting = Task { try await relay.relay.waitForMail(.address(relay.relayAddress), timeout: .seconds(240)) }
        _ = try await relay.send(to: relay.relayAddress)
        #expect(try await waiting.value.count == 1)
        #expect(try await relay.relay.waitForMail(.address("nobody@example.com"), timeout: .zero).isEmpty)
    }
}
