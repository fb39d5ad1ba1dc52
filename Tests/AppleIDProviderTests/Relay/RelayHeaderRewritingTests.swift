import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation
import Testing

/// One header rule for both directions (issue 35, findings 4, 5 and 8): the relay rebuilds the
/// header section from an allow-list, from a section parsed to its blank line, writes its own
/// Message-ID and maps In-Reply-To/References back; it refuses a section it cannot read whole and
/// a message with two of a field RFC 5322 §3.6 allows once.
@Suite("The relay's header rule, both directions")
struct RelayHeaderRewritingTests {
    static func fields(_ source: [UInt8]) -> [String] {
        let text = String(decoding: source, as: UTF8.self)
        let head = text.components(separatedBy: "\r\n\r\n").first ?? ""
        // A continuation line (folded) belongs to the field before it.
        return head.components(separatedBy: "\r\n").filter { !$0.hasPrefix(" ") }.compactMap {
            $0.split(separator: ":").first.map { $0.lowercased() }
        }
    }

    @Test("a forwarded message with more header fields than the limit is refused (552), not forwarded with the sender's Reply-To")
    func tooManyFields() async throws {
        let relay = try await RelayHarness.make()
        let filler = (0..<1_001).map { "X-Filler-\($0): x\r\n" }.joined()
        let message = Array("From: News <news@example.com>\r\nSubject: Weekly\r\n\(filler)Reply-To: news@example.com\r\n\r\nHello\r\n".utf8)
        let result = try await relay.send(to: relay.relayAddress, source: message)
        #expect(result.data == 552)
        #expect(try await relay.relay.mailbox(accountID: relay.accountID).isEmpty)
    }

    @Test("a header section that does not parse to its blank line is refused (554)")
    func unparsable() async throws {
        let relay = try await RelayHarness.make()
        let message = Array(
            "From: News <news@example.com>\r\nSubject: Weekly\r\nthis is not a field\r\nReply-To: news@example.com\r\n\r\nHello\r\n".utf8)
        #expect(try await relay.send(to: relay.relayAddress, source: message).data == 554)
    }

    @Test("a forwarded message keeps only the allowed fields, with a Message-ID under the relay domain; Reply-To and receipt requests are gone")
    func forwardAllowList() async throws {
        let relay = try await RelayHarness.make()
        let message = Array(
            """
            From: News <news@example.com>\r
            To: someone\r
            Reply-To: news-replies@example.com\r
            Mail-Followup-To: list@example.com\r
            Disposition-Notification-To: news@example.com\r
            Return-Receipt-To: news@example.com\r
            Received: from mail.example.com by mx\r
            DKIM-Signature: v=1; d=example.com\r
            X-Mailer: Newsletter 2\r
            Message-ID: <n1@mail.example.com>\r
            Subject: Weekly\r
            Date: Sat, 28 Nov 2026 10:00:00 +0000\r
            MIME-Version: 1.0\r
            Content-Type: text/plain; charset=utf-8\r
            \r
            Hello\r

            """.utf8)
        #expect(try await relay.send(to: relay.relayAddress, source: message) == (250, 250))
        let mail = try #require(try await relay.relay.mailbox(accountID: relay.accountID).first)
        let detail = try #require(try await relay.relay.message(id: mail.message.id))
        let names = Self.fields(detail.source)
        #expect(names.sorted() == ["content-type", "date", "from", "message-id", "mime-version", "received", "subject", "to"])
        let messageID = try #require(detail.headers.first { $0.name == "Message-ID" }?.value)
        #expect(messageID.hasSuffix("@privaterelay.appleid.com>"))
        #expect(!String(decoding: detail.source, as: UTF8.self).contains("news-replies"))
        #expect(detail.body == "Hello\r\n")
    }

    @Test(
        "a reply leaks nothing of the user's domain: no Message-ID, DKIM-Signature or Authentication-Results of it; In-Reply-To maps back to the sender's id"
    )
    func replyLeaksNothing() async throws {
        let relay = try await RelayHarness.make()
        let first = Array("From: News <news@example.com>\r\nMessage-ID: <n1@mail.example.com>\r\nSubject: Weekly\r\n\r\nHello\r\n".utf8)
        _ = try await relay.send(to: relay.relayAddress, source: first)
        let forwarded = try #require(try await relay.relay.mailbox(accountID: relay.accountID).first)
        let forwardedDetail = try #require(try await relay.relay.message(id: forwarded.message.id))
        let relayID = try #require(forwardedDetail.headers.first { $0.name == "Message-ID" }?.value)
        let alias = forwarded.message.envelopeSender
        let answer = Array(
            """
            From: Maria Ruiz <maria@example.com>\r
            To: \(alias)\r
            Message-ID: <m1@mx.maria-home.example>\r
            In-Reply-To: \(relayID)\r
            References: \(relayID) <m0@mx.maria-home.example>\r
            DKIM-Signature: v=1; d=maria-home.example; s=k\r
            Authentication-Results: mx.maria-home.example; spf=pass\r
            ARC-Seal: i=1; d=maria-home.example\r
            Return-Receipt-To: maria@example.com\r
            Mail-Reply-To: maria@example.com\r
            X-Originating-IP: 192.0.2.9\r
            Subject: Re: Weekly\r
            \r
            Thanks\r

            """.utf8)
        #expect(try await relay.send(from: "maria@example.com", to: alias, source: answer) == (250, 250))
        let reply = try #require(try await relay.relay.messages(.address("news@example.com")).first)
        let detail = try #require(try await relay.relay.message(id: reply.message.id))
        let source = String(decoding: detail.source, as: UTF8.self)
        #expect(!source.contains("maria-home"), "the user's domain reached the developer:\n\(source)")
        #expect(Self.fields(detail.source).sorted() == ["from", "in-reply-to", "message-id", "received", "references", "subject", "to"])
        #expect(detail.headers.first { $0.name == "In-Reply-To" }?.value == "<n1@mail.example.com>", "the sender's own id, for its threading")
        let references = try #require(detail.headers.first { $0.name == "References" }?.value)
        #expect(references.hasPrefix("<n1@mail.example.com> <"))
        #expect(references.hasSuffix("@privaterelay.appleid.com>"))
    }

    @Test(
        "a message with two From, Subject, Date, To or Message-ID fields is refused at accept (RFC 5322 §3.6)",
        arguments: ["From", "Subject", "Date", "To", "Message-ID"])
    func duplicateField(name: String) async throws {
        let relay = try await RelayHarness.make()
        let fields = [
            "From: News <news@example.com>", "Subject: Weekly", "Date: Sat, 28 Nov 2026 10:00:00 +0000", "To: someone",
            "Message-ID: <n1@mail.example.com>",
        ]
        let doubled = fields + fields.filter { $0.hasPrefix(name + ":") }
        let message = Array((doubled.joined(separator: "\r\n") + "\r\n\r\nHello\r\n").utf8)
        let result = try await relay.send(to: relay.relayAddress, source: message)
        #expect(result.data == 554)
        #expect(try await relay.relay.mailbox(accountID: relay.accountID).isEmpty)
    }
}
