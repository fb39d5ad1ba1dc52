import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation
import Testing

@Suite("The relay's smarthost queue: retries and bounces (RFC 3464)")
struct RelaySmarthostTests {
    @Test("with a smarthost, accepted mail is queued, sent to the real address from the alias, and marked sent")
    func sent() async throws {
        let relay = try await RelayHarness.make(smarthost: true)
        _ = try await relay.send(to: relay.relayAddress)
        #expect(try await relay.relay.messages(.all).first?.delivery.state == .queued)
        let transport = ScriptedTransport([.sent])
        #expect(try await relay.relay.deliverDue(using: transport) == 1)
        let sent = try #require(transport.sent.withLock { $0.first })
        #expect(sent.to == "maria@example.com")
        #expect(sent.from.hasPrefix("news_at_example_com_"))
        #expect(try await relay.relay.messages(.all).first?.delivery.state == .sent)
        #expect(try await relay.relay.deliverDue(using: transport) == 0, "nothing is sent twice")
    }

    @Test("a transient failure is retried after the backoff, not before")
    func retried() async throws {
        let relay = try await RelayHarness.make(smarthost: true)
        _ = try await relay.send(to: relay.relayAddress)
        let transport = ScriptedTransport([.transientFailure("451 4.3.0 try later"), .sent])
        #expect(try await relay.relay.deliverDue(using: transport) == 1)
        let waiting = try #require(try await relay.relay.messages(.all).first)
        #expect(waiting.delivery.state == .queued)
        #expect(waiting.delivery.attempts == 1)
        #expect(waiting.delivery.lastError == "451 4.3.0 try later")
        relay.harness.clock.advance(by: 29)
        #expect(try await relay.relay.deliverDue(using: transport) == 0)
        relay.harness.clock.advance(by: 1)
        #expect(try await relay.relay.deliverDue(using: transport) == 1)
        #expect(try await relay.relay.messages(.all).first?.delivery.state == .sent)
    }

    @Test("a permanent failure bounces: a multipart/report DSN to the sender that names the relay address, never the real one")
    func bounce() async throws {
        let relay = try await RelayHarness.make(smarthost: true)
        _ = try await relay.send(to: relay.relayAddress)
        let transport = ScriptedTransport([.permanentFailure("550 5.1.1 <maria@example.com>: mailbox unavailable")])
        #expect(try await relay.relay.deliverDue(using: transport) == 1)
        let failed = try #require(try await relay.relay.messages(.address(relay.relayAddress)).first)
        #expect(failed.delivery.state == .failed)
        let bounce = try #require(try await relay.relay.messages(.address("news@example.com")).first)
        #expect(bounce.message.direction == .bounce)
        #expect(bounce.message.envelopeSender == "", "bounces have the null sender")
        #expect(bounce.delivery.state == .queued)
        let source = String(decoding: try #require(try await relay.relay.message(id: bounce.message.id)).source, as: UTF8.self)
        #expect(source.contains("Content-Type: multipart/report; report-type=delivery-status"))
        #expect(source.contains("Content-Type: message/delivery-status"))
        #expect(source.contains("Final-Recipient: rfc822; \(relay.relayAddress)"))
        #expect(source.contains("Status: 5.1.1"))
        #expect(source.contains("Action: failed"))
        #expect(!source.contains("maria@example.com"))

        // The bounce itself failing bounces nothing (no loops).
        #expect(try await relay.relay.deliverDue(using: ScriptedTransport([.permanentFailure("550 no")])) == 1)
        #expect(try await relay.relay.messages(.all).count == 2)
    }

    @Test("retries stop after the delivery window: the sender gets a 4.4.7 bounce")
    func expired() async throws {
        let relay = try await RelayHarness.make(smarthost: true)
        _ = try await relay.send(to: relay.relayAddress)
        relay.harness.clock.advance(by: 2 * 86_400)
        #expect(try await relay.relay.deliverDue(using: ScriptedTransport([.transientFailure("421 busy")])) == 1)
        let bounce = try #require(try await relay.relay.messages(.address("news@example.com")).first)
        let source = String(decoding: try #require(try await relay.relay.message(id: bounce.message.id)).source, as: UTF8.self)
        #expect(source.contains("Status: 4.4.7"))
    }

    @Test("a large message goes to the smarthost as the store lends it, a chunk at a time, byte for byte; its bounce still quotes its header section")
    func streamed() async throws {
        let relay = try await RelayHarness.make(smarthost: true)
        let line = Array(("x" + String(repeating: "y", count: 74) + "\r\n").utf8)
        let body = Array([[UInt8]](repeating: line, count: 3 * RelayMessageChunk.size / line.count).joined())
        let source = Array("From: news@example.com\r\nTo: someone\r\nSubject: Big\r\n\r\n".utf8) + body
        #expect(try await relay.send(to: relay.relayAddress, source: source).data == 250)
        let stored = try #require(try await relay.relay.messages(.all).first)
        let transport = ScriptedTransport([.permanentFailure("552 5.3.4 too big for me")])
        #expect(try await relay.relay.deliverDue(using: transport) == 1)
        let sent = try #require(transport.sent.withLock { $0.first })
        let pieces = transport.pieces.withLock { $0 }
        #expect(Array(sent.source.utf8) == (try #require(try await relay.relay.message(id: stored.message.id)).source))
        #expect(sent.source.hasSuffix(String(decoding: body.suffix(200), as: UTF8.self)))
        #expect(pieces.count >= 3, "lent in pieces: \(pieces)")
        #expect(pieces.largest <= RelayMessageChunk.size, "never more than a chunk at once: \(pieces)")

        let bounce = try #require(try await relay.relay.messages(.address("news@example.com")).first)
        let dsn = String(decoding: try #require(try await relay.relay.message(id: bounce.message.id)).source, as: UTF8.self)
        #expect(dsn.contains("Subject: Big"), "the DSN quotes the failed message's header section")
        #expect(!dsn.contains("yyyyyyyyyy"), "and not its body")
    }
}
