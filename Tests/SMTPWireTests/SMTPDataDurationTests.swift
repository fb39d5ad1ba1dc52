import SMTPWire
import Testing

/// DATA is bounded in total time, not only by the silence between bytes: a client that trickles
/// a byte just inside the idle timeout cannot hold a session for ever (issue 35, finding 7).
@Suite("SMTP DATA: total time")
struct SMTPDataDurationTests {
    @Test("a client that sends one byte every 179 s is closed with 421 once DATA has lasted its maximum (10 minutes by default)")
    func trickleIsClosed() {
        var client = SMTPSessionDataTests.inData()
        var closedAt: Duration?
        for _ in 0..<20 where closedAt == nil {
            client.now += .seconds(179)
            // The listener checks the time before it feeds each read, as SMTPConversation does.
            if !client.advance(.zero).isEmpty {
                closedAt = client.now
                break
            }
            client.send("x")
        }
        #expect(closedAt.map { $0 <= .seconds(600 + 179) } == true, "still open after \(client.now)")
        #expect(client.events.suffix(3) == [.messageAborted, .reply(SMTPReply(421, "4.4.2 DATA took too long, closing connection")), .close])
    }

    @Test("a message that keeps flowing finishes within the bound; the bound starts again with the next DATA")
    func boundIsPerMessage() {
        var client = SMTPSessionDataTests.inData()
        for _ in 0..<5 {
            client.now += .seconds(100)
            #expect(client.advance(.zero).isEmpty)
            client.send("line\r\n")
        }
        client.send(".\r\n")
        client.resolve(.ok)
        client.send("MAIL FROM:<a@b.c>\r\nRCPT TO:<r@relay.test>\r\n")
        client.resolve(.ok)
        client.send("DATA\r\n")
        for _ in 0..<5 {
            client.now += .seconds(100)
            #expect(client.advance(.zero).isEmpty)
            client.send("line\r\n")
        }
        #expect(!client.closed)
    }
}
