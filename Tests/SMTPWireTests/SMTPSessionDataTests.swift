import SMTPWire
import Testing

@Suite("SMTP DATA, limits, pipelining and time (RFC 5321 §4.5, RFC 2920)")
struct SMTPSessionDataTests {
    /// A driver inside DATA with one accepted recipient.
    static func inData(limits: SMTPLimits = SMTPLimits()) -> SessionDriver {
        var client = SessionDriver(limits: limits)
        client.send("EHLO c\r\nMAIL FROM:<a@b.c>\r\nRCPT TO:<r@relay.test>\r\n")
        client.resolve(.ok)
        client.send("DATA\r\n")
        return client
    }

    @Test("a leading dot is removed (dot-unstuffing); only CRLF.CRLF ends the message")
    func dotStuffing() {
        var client = Self.inData()
        client.send("..hidden\r\n.x\r\n...\r\nend\r\n")
        client.send(".\r\n")
        #expect(String(decoding: client.message, as: UTF8.self) == ".hidden\r\nx\r\n..\r\nend\r\n")
    }

    @Test("the end marker split over many reads, byte by byte, is still found")
    func byteByByte() {
        var client = Self.inData()
        for byte in "line\r\n..dot\r\n.\r\n".utf8 { client.send(String(decoding: [byte], as: UTF8.self)) }
        #expect(client.completed.count == 1)
        #expect(String(decoding: client.message, as: UTF8.self) == "line\r\n.dot\r\n")
    }

    @Test("the empty message is allowed")
    func emptyMessage() {
        var client = Self.inData()
        client.send(".\r\n")
        #expect(client.completed.first?.size == 0)
    }

    @Test("a message over the size limit is refused with 552 at its end, and none of it past the limit is kept")
    func sizeLimit() {
        var limits = SMTPLimits()
        limits.maximumMessageBytes = 100
        var client = Self.inData(limits: limits)
        var largestChunk = 0
        for _ in 0..<50 {
            client.send(String(repeating: "a", count: 48) + "\r\n")
            largestChunk = max(largestChunk, client.message.count)
        }
        #expect(largestChunk <= 100)
        #expect(client.send(".\r\n") == "552 5.3.4 Message size exceeds fixed maximum message size of 100 bytes\r\n")
        #expect(client.message.isEmpty, "aborted")
        #expect(client.completed.isEmpty)
        #expect(client.send("MAIL FROM:<a@b.c>\r\n") == "250 2.0.0 OK\r\n", "the session goes on")
    }

    @Test("MAIL with a SIZE over the limit is refused at once")
    func declaredSize() {
        var limits = SMTPLimits()
        limits.maximumMessageBytes = 100
        var client = SessionDriver(limits: limits)
        client.send("EHLO c\r\n")
        #expect(client.send("MAIL FROM:<a@b.c> SIZE=101\r\n") == "552 5.3.4 Message size exceeds fixed maximum message size of 100 bytes\r\n")
        #expect(client.send("MAIL FROM:<a@b.c> SIZE=100\r\n") == "250 2.0.0 OK\r\n")
    }

    @Test("the recipient limit answers 452 without asking the caller")
    func recipientLimit() {
        var limits = SMTPLimits()
        limits.maximumRecipients = 2
        var client = SessionDriver(limits: limits)
        client.send("EHLO c\r\nMAIL FROM:<a@b.c>\r\n")
        for index in 0..<2 {
            client.send("RCPT TO:<r\(index)@relay.test>\r\n")
            client.resolve(.ok)
        }
        #expect(client.send("RCPT TO:<r3@relay.test>\r\n") == "452 4.5.3 Too many recipients\r\n")
        #expect(client.checkedRecipients == ["r0@relay.test", "r1@relay.test"])
    }

    @Test("pipelined commands are answered in order, each after its decision")
    func pipelining() {
        var client = SessionDriver()
        let first = client.send("EHLO c\r\nMAIL FROM:<a@b.c>\r\nRCPT TO:<one@relay.test>\r\nRCPT TO:<two@relay.test>\r\nDATA\r\n")
        #expect(first.hasSuffix("250 SMTPUTF8\r\n250 2.0.0 OK\r\n"), "stopped at the first recipient")
        #expect(client.resolve(.ok) == "250 2.0.0 OK\r\n", "then stopped at the second")
        #expect(client.resolve(SMTPReply(550, "5.1.1 no")) == "550 5.1.1 no\r\n354 End data with <CR><LF>.<CR><LF>\r\n")
        client.send("hi\r\n.\r\nQUIT\r\n")
        #expect(client.completed.first?.recipients.map(\.address) == ["one@relay.test"])
        #expect(!client.closed, "QUIT waits for the message's answer")
        #expect(client.resolve(.ok) == "250 2.0.0 OK\r\n221 2.0.0 Bye\r\n")
        #expect(client.closed)
    }

    @Test("a half-closed client: what it sent is answered, then the session closes; a message cut short is forgotten")
    func halfClosed() {
        var client = SessionDriver()
        client.send("EHLO c\r\nMAIL FROM:<a@b.c>\r\nRCPT TO:<r@relay.test>\r\n")
        #expect(client.endInput() == "", "the decision is still pending")
        #expect(client.resolve(.ok) == "250 2.0.0 OK\r\n")
        #expect(client.closed)

        var cut = Self.inData()
        cut.send("half a message\r\n")
        cut.endInput()
        #expect(cut.events.suffix(2) == [.messageAborted, .close])
        #expect(cut.completed.isEmpty)
    }

    @Test("a slow client is closed with 421 after the command timeout; DATA has its own, reset by each chunk")
    func slowClients() {
        var client = SessionDriver()
        #expect(client.advance(.seconds(299)) == "")
        client.send("EHL")
        #expect(client.advance(.seconds(1)) == "421 4.4.2 Timeout, closing connection\r\n", "part of a line is no progress")
        #expect(client.closed)

        var data = Self.inData()
        data.advance(.seconds(179))
        data.send("more\r\n")
        #expect(data.advance(.seconds(179)) == "")
        #expect(data.advance(.seconds(1)) == "421 4.4.2 Timeout, closing connection\r\n")
        #expect(data.events.suffix(3) == [.messageAborted, .reply(.timeout), .close])
    }

    @Test("the time the caller takes to decide does not count against the client")
    func pendingDecisionIsNotTimedOut() {
        var client = SessionDriver()
        client.send("EHLO c\r\nMAIL FROM:<a@b.c>\r\nRCPT TO:<r@relay.test>\r\n")
        #expect(client.advance(.seconds(600)) == "")
        #expect(client.resolve(.ok) == "250 2.0.0 OK\r\n")
    }
}
