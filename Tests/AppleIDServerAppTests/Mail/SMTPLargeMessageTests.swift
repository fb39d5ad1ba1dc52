import AppleIDProvider
import AppleIDRelay
import Foundation
import SMTPWire
import ServerTestSupport
import Testing

/// A 25 MB message over the wire (issue 21): taken or refused by the size limit while the relay
/// holds at most one chunk of it in memory at a time, measured with the listener's injected gauge.
@Suite("The SMTP listener and a 25 MB message")
struct SMTPLargeMessageTests {
    static let megabytes = 25

    /// Lines of 100 bytes (CRLF included), each naming its number, up to `megabytes` MB.
    static func body() -> String {
        let lineCount = megabytes * 1024 * 1024 / 100
        var text = ""
        text.reserveCapacity(lineCount * 100)
        for number in 0..<lineCount {
            let head = "line \(number) "
            text += head + String(repeating: "x", count: 98 - head.utf8.count) + "\r\n"
        }
        return text
    }

    /// Sends the message in pieces of 1 MB and returns the reply to its end.
    static func send(_ body: String, port: Int) async throws -> SMTPReply {
        var client = try await TinySMTPClient(port: port)
        #expect(try await client.replies(1).map(\.code) == [220])
        try await client.send(
            "EHLO big\r\nMAIL FROM:<news@example.com>\r\nRCPT TO:<\(SMTPListenerTests.relayAddress)>\r\nDATA\r\n")
        #expect(try await client.replies(4).map(\.code) == [250, 250, 250, 354])
        try await client.send("From: News <news@example.com>\r\nSubject: Big\r\n\r\n")
        let bytes = Array(body.utf8)
        for start in stride(from: 0, to: bytes.count, by: 1024 * 1024) {
            try await client.send(String(decoding: bytes[start..<min(start + 1024 * 1024, bytes.count)], as: UTF8.self))
        }
        try await client.send(".\r\n")
        let reply = try await client.replies(1)
        await client.close()
        return try #require(reply.first)
    }

    @Test("a 25 MB message within the size limit is stored whole, while the relay held at most one chunk of it", .timeLimit(.minutes(5)))
    func acceptedInChunks() async throws {
        var limits = SMTPLimits()
        limits.maximumMessageBytes = 30 * 1024 * 1024
        let gauge = BufferGauge()
        let body = Self.body()
        try await SMTPListenerTests.withListener(limits: limits, gauge: gauge) { server, port in
            let reply = try await Self.send(body, port: port)
            #expect(reply.code == 250, "\(reply.lines)")
            let relay = server.relay
            let stored = try #require(try await relay.messages(.address(SMTPListenerTests.relayAddress)).first)
            let detail = try #require(try await relay.message(id: stored.message.id))
            #expect(detail.body == body, "the body comes back byte for byte")
            #expect(detail.headers.first { $0.name == "Subject" }?.value == "Big")
            #expect(stored.message.size == detail.source.count)
        }
        #expect(gauge.peak <= RelayMessageChunk.size, "held \(gauge.peak) bytes at once; a chunk is \(RelayMessageChunk.size)")
    }

    @Test("a 25 MB message over the size limit is refused with 552, having cost at most one chunk of memory", .timeLimit(.minutes(5)))
    func refusedInChunks() async throws {
        var limits = SMTPLimits()
        limits.maximumMessageBytes = 20 * 1024 * 1024
        let gauge = BufferGauge()
        try await SMTPListenerTests.withListener(limits: limits, gauge: gauge) { server, port in
            let reply = try await Self.send(Self.body(), port: port)
            #expect(reply.code == 552, "\(reply.lines)")
            #expect(try await server.relay.messages(.all).isEmpty)
        }
        #expect(gauge.peak <= RelayMessageChunk.size, "held \(gauge.peak) bytes at once; a chunk is \(RelayMessageChunk.size)")
    }
}
