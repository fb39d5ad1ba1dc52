import SMTPWire
import Testing

@Suite("SMTP commands (RFC 5321 §4.1)")
struct SMTPSessionCommandTests {
    @Test("EHLO announces SIZE, 8BITMIME, PIPELINING and SMTPUTF8; HELO answers one line")
    func hello() {
        var client = SessionDriver()
        #expect(
            client.send("EHLO client.example\r\n")
                == "250-relay.test greets client.example\r\n250-SIZE 10485760\r\n250-8BITMIME\r\n250-PIPELINING\r\n250 SMTPUTF8\r\n")
        #expect(client.send("helo other\r\n") == "250 relay.test greets other\r\n")
        #expect(client.send("EHLO\r\n") == "501 5.5.4 EHLO requires a domain\r\n")
    }

    @Test("the greeting names the host")
    func greeting() {
        #expect(SMTPSession(hostname: "relay.test", now: .zero).greeting.bytes == Array("220 relay.test ESMTP ready\r\n".utf8))
    }

    @Test("one whole transaction: MAIL, RCPT (asked of the caller), DATA, the message, QUIT")
    func transaction() throws {
        var client = SessionDriver()
        client.send("EHLO c\r\n")
        #expect(client.send("MAIL FROM:<News@Example.COM> BODY=8BITMIME SMTPUTF8\r\n") == "250 2.0.0 OK\r\n")
        #expect(client.send("RCPT TO:<abc@privaterelay.test>\r\n") == "")
        #expect(client.session.isAwaitingDecision)
        #expect(client.events.last == .checkRecipient(MailPath(address: "abc@privaterelay.test"), sender: MailPath(address: "News@example.com")))
        #expect(client.resolve(.ok) == "250 2.0.0 OK\r\n")
        #expect(client.send("DATA\r\n") == "354 End data with <CR><LF>.<CR><LF>\r\n")
        #expect(client.send("Subject: hi\r\n\r\nbody\r\n.\r\n") == "")
        let envelope = try #require(client.completed.first)
        #expect(envelope.recipients == [MailPath(address: "abc@privaterelay.test")])
        #expect(envelope.size == 21)
        #expect(envelope.parameters == ["BODY": "8BITMIME", "SMTPUTF8": ""])
        #expect(String(decoding: client.message, as: UTF8.self) == "Subject: hi\r\n\r\nbody\r\n")
        #expect(client.resolve(SMTPReply(250, "2.0.0 Ok: queued as 1")) == "250 2.0.0 Ok: queued as 1\r\n")
        #expect(client.send("QUIT\r\n") == "221 2.0.0 Bye\r\n")
        #expect(client.closed)
    }

    @Test("a refused recipient is not in the envelope, and DATA with none is refused")
    func refusedRecipient() {
        var client = SessionDriver()
        client.send("EHLO c\r\nMAIL FROM:<a@b.c>\r\nRCPT TO:<x@y.z>\r\n")
        #expect(client.resolve(SMTPReply(550, "5.1.1 no")) == "550 5.1.1 no\r\n")
        #expect(client.send("DATA\r\n") == "554 5.5.1 No valid recipients\r\n")
    }

    @Test(
        "commands out of order are refused with 503",
        arguments: [
            ("MAIL FROM:<a@b.c>\r\n", "503 5.5.1 Say EHLO first\r\n"),
            ("EHLO c\r\nRCPT TO:<a@b.c>\r\n", "503 5.5.1 Bad sequence of commands\r\n"),
            ("EHLO c\r\nDATA\r\n", "503 5.5.1 Bad sequence of commands\r\n"),
            ("EHLO c\r\nMAIL FROM:<a@b.c>\r\nMAIL FROM:<a@b.c>\r\n", "503 5.5.1 Bad sequence of commands\r\n"),
        ])
    func outOfOrder(input: String, lastReply: String) {
        var client = SessionDriver()
        #expect(client.send(input).hasSuffix(lastReply))
    }

    @Test("RSET, NOOP, HELP and VRFY (refused politely, 252); EXPN and STARTTLS are not offered; junk is 500")
    func otherCommands() {
        var client = SessionDriver()
        client.send("EHLO c\r\nMAIL FROM:<a@b.c>\r\n")
        #expect(client.send("RSET\r\n") == "250 2.0.0 OK\r\n")
        #expect(client.send("RCPT TO:<a@b.c>\r\n") == "503 5.5.1 Bad sequence of commands\r\n", "RSET ended the transaction")
        #expect(client.send("NOOP anything\r\n") == "250 2.0.0 OK\r\n")
        #expect(client.send("VRFY root\r\n").hasPrefix("252 2.1.5 Cannot VRFY user"))
        #expect(client.send("HELP\r\n").hasPrefix("214 "))
        #expect(client.send("EXPN staff\r\n") == "502 5.5.1 Command not implemented\r\n")
        #expect(client.send("STARTTLS\r\n") == "502 5.5.1 Command not implemented\r\n")
        #expect(client.send("FOO\r\n") == "500 5.5.2 Command not recognized\r\n")
        #expect(client.send("RSET now\r\n") == "501 5.5.4 RSET takes no argument\r\n")
    }

    @Test(
        "malformed paths and parameters are 501 or 555; a null sender is allowed",
        arguments: [
            ("MAIL FROM:a@b.c\r\n", "501 5.5.4 Syntax: MAIL FROM:<address>\r\n"),
            ("MAIL FROM:<a b@c>\r\n", "501 5.5.4 Syntax: MAIL FROM:<address>\r\n"),
            ("MAIL TO:<a@b.c>\r\n", "501 5.5.4 Syntax: MAIL FROM:<address>\r\n"),
            ("MAIL FROM:<a@b.c> SIZE=x\r\n", "501 5.5.4 SIZE must be a number\r\n"),
            ("MAIL FROM:<a@b.c> BODY=BINARYMIME\r\n", "501 5.5.4 BODY must be 7BIT or 8BITMIME\r\n"),
            ("MAIL FROM:<a@b.c> AUTH=<>\r\n", "555 5.5.4 Unsupported parameter AUTH\r\n"),
            ("MAIL FROM:<>\r\n", "250 2.0.0 OK\r\n"),
            ("MAIL FROM:<@relay.x:a@b.c>\r\n", "250 2.0.0 OK\r\n"),
            // A parameter with no keyword (found by FuzzSMTP: the parser indexed an empty split).
            ("MAIL FROM:<a@b.c> =\r\n", "501 5.5.4 Repeated or empty parameter\r\n"),
            ("MAIL FROM:<a@b.c> =09\r\n", "501 5.5.4 Repeated or empty parameter\r\n"),
        ])
    func malformed(input: String, reply: String) {
        var client = SessionDriver()
        client.send("EHLO c\r\n")
        #expect(client.send(input) == reply)
    }

    @Test("too many wrong commands close the session with 421")
    func tooManyErrors() {
        var limits = SMTPLimits()
        limits.maximumErrors = 3
        var client = SessionDriver(limits: limits)
        let replies = client.send(String(repeating: "FOO\r\n", count: 5))
        #expect(replies.hasSuffix("421 4.7.0 Too many errors, closing connection\r\n"))
        #expect(client.closed)
        #expect(client.send("NOOP\r\n") == "", "nothing is read after the close")
    }

    @Test("a command line over the limit is refused once and skipped to its end")
    func longLine() {
        var limits = SMTPLimits()
        limits.maximumCommandLength = 20
        var client = SessionDriver(limits: limits)
        #expect(client.send("NOOP " + String(repeating: "x", count: 30)) == "500 5.5.2 Line too long\r\n")
        #expect(client.send(String(repeating: "y", count: 30)) == "", "the same line still: no second reply")
        #expect(client.send("\r\nNOOP\r\n") == "250 2.0.0 OK\r\n")
    }
}
