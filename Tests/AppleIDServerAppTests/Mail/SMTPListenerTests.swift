import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import AppleIDServerApp
import Foundation
import Logging
import SMTPWire
import ServerTestSupport
import Testing

/// The relay's SMTP listener over 127.0.0.1, with a tiny client (issue 21). What the admin API shows
/// of the mail it took: `Tests/AppleIDServerTests/Relay/AdminMailTests`.
@Suite("The SMTP listener")
struct SMTPListenerTests {
    static let relayAddress = TestEngine.relayAddress

    /// A test engine whose Apple ID maria hid her e-mail from the Juice team (source: example.com),
    /// and its SMTP listener on a free port while `body` runs.
    static func withListener(
        limits: SMTPLimits = SMTPLimits(), gauge: BufferGauge = BufferGauge(), txtResolver: any TXTResolver = UnconfiguredTXTResolver(),
        authenticatesSenders: Bool = false, admission: SMTPAdmission = SMTPAdmission(), _ body: @Sendable (TestEngine, Int) async throws -> Void
    ) async throws {
        let server = try await TestEngine.make(txtResolver: txtResolver)
        try await server.arrangeRelayRecipient()
        let relay = server.relay
        let listener: @Sendable (@escaping @Sendable (Int) -> Void) async throws -> Void = { onListening in
            try await SMTPListener(
                host: "127.0.0.1", port: 0, relay: relay, hostname: "relay.test", limits: limits, logger: Logger(label: "test"),
                authenticatesSenders: authenticatesSenders, admission: admission, gauge: gauge, onListening: onListening
            ).run()
        }
        try await whileListening(listener) { port in try await body(server, port) }
    }

    @Test("an unregistered sender is refused with 550 over the wire, and a half-closed client is answered, then closed", .timeLimit(.minutes(5)))
    func refusedAndHalfClosed() async throws {
        try await Self.withListener { server, port in
            var client = try await TinySMTPClient(port: port)
            try await client.send("EHLO tiny\r\nMAIL FROM:<spam@elsewhere.test>\r\nRCPT TO:<\(Self.relayAddress)>\r\n")
            try await client.endOutput()
            let replies = try await client.replies(4)
            #expect(replies.map(\.code) == [220, 250, 250, 550])
            #expect(replies[3].lines[0].contains("Sender not registered for this relay"))
            #expect(try await client.isClosedByServer())
            await client.close()
            #expect(try await server.relay.messages(.all).isEmpty)
        }
    }

    /// example.com lists 192.0.2.0/24 only: the test's client, on 127.0.0.1, is not among them.
    struct SPFTable: TXTResolver {
        let policy: String
        func txtRecords(of domain: String) async throws(TXTLookupError) -> TXTAnswer {
            domain == "example.com" ? .records([policy]) : .noSuchName
        }
    }

    @Test(
        "beyond the loopback a registered sender from an address its SPF policy does not list is refused at RCPT, before DATA; a listed one relays",
        .timeLimit(.minutes(5)))
    func unauthenticatedSenderRefusedBeforeData() async throws {
        try await Self.withListener(txtResolver: SPFTable(policy: "v=spf1 ip4:192.0.2.0/24 -all"), authenticatesSenders: true) { server, port in
            var client = try await TinySMTPClient(port: port)
            try await client.send("EHLO tiny\r\nMAIL FROM:<news@example.com>\r\nRCPT TO:<\(Self.relayAddress)>\r\nDATA\r\n")
            let replies = try await client.replies(5)
            #expect(replies.map(\.code) == [220, 250, 250, 550, 554])
            #expect(replies[3].lines[0] == "5.7.23 127.0.0.1 is not allowed to send mail from example.com (SPF fail)")
            await client.close()
            #expect(try await server.relay.messages(.all).isEmpty)
        }
        try await Self.withListener(txtResolver: SPFTable(policy: "v=spf1 ip4:127.0.0.0/8 -all"), authenticatesSenders: true) { server, port in
            var client = try await TinySMTPClient(port: port)
            try await client.send("EHLO tiny\r\nMAIL FROM:<news@example.com>\r\nRCPT TO:<\(Self.relayAddress)>\r\nDATA\r\n")
            #expect(try await client.replies(5).map(\.code) == [220, 250, 250, 250, 354])
            try await client.send("Subject: listed\r\n\r\nhi\r\n.\r\nQUIT\r\n")
            #expect(try await client.replies(2).map(\.code) == [250, 221])
            await client.close()
            #expect(try await server.relay.messages(.all).count == 1)
        }
    }

    @Test("a listener on a loopback address takes senders unchecked; on any other address it checks them")
    func checkFollowsTheBind() async throws {
        let server = try await TestEngine.make()
        let checks = ["127.0.0.1", "127.0.0.2", "::1", "0.0.0.0", "192.0.2.1", "::"].map { host in
            SMTPListener(host: host, port: 0, relay: server.relay, hostname: "relay.test", logger: Logger(label: "test"))
                .authenticatesSenders
        }
        #expect(checks == [false, false, false, true, true, true])
    }
}
