import SMTPWire
import Testing

/// Lines end with CRLF only (RFC 5321 §2.3.8): a bare CR or a bare LF in DATA is refused, as
/// Postfix's `smtpd_forbid_bare_newline` does, and the relay's own DATA never sends one (issue 35,
/// finding 9: `<CR>.<CR>` smuggling against receivers that accept it).
@Suite("SMTP DATA: bare CR and bare LF")
struct SMTPBareLineEndTests {
    @Test(
        "a message with a bare CR or a bare LF is refused with 550 5.5.2 at its end, and nothing of it is handed on",
        arguments: ["one\ntwo\r\n", "one\rtwo\r\n", "a\r\r\n", "\r.\r\nafter\r\n", "end\n.\nstill\r\n"])
    func refused(body: String) {
        var client = SMTPSessionDataTests.inData()
        client.send(body)
        #expect(client.completed.isEmpty, "the end marker is only CRLF.CRLF")
        let wire = client.send(".\r\n")
        #expect(client.completed.isEmpty)
        #expect(wire == "550 5.5.2 Message refused: bare CR or LF; every line ends with CRLF (RFC 5321 §2.3.8)\r\n")
        #expect(client.message.isEmpty)
        #expect(client.send("RSET\r\n") == "250 2.0.0 OK\r\n", "the session goes on")
    }

    @Test("a bare CR split from the byte after it across reads is still found; a CRLF split so is not one")
    func splitAcrossReads() {
        var client = SMTPSessionDataTests.inData()
        client.send("fine\r")
        client.send("\nalso\r")
        client.send("x\r\n.\r\n")
        #expect(client.completed.isEmpty)
        var clean = SMTPSessionDataTests.inData()
        clean.send("fine\r")
        clean.send("\n.\r")
        clean.send("\n")
        #expect(clean.completed.count == 1)
    }

    @Test(
        "dot-stuffing never emits a CR without LF nor a LF without CR, and a dot after a converted line end is doubled",
        arguments: ["a\rb", "a\r.\rb", "\r", "x\r\r\n", "\n.\n", "a\r\n.\r"])
    func encodeNeverBare(text: String) {
        let encoded = SMTPDotStuffing.encode(Array(text.utf8))
        for (index, byte) in encoded.enumerated() {
            if byte == UInt8(ascii: "\r") {
                #expect(index + 1 < encoded.count && encoded[index + 1] == UInt8(ascii: "\n"), "CR at \(index) of \(encoded)")
            }
            if byte == UInt8(ascii: "\n") { #expect(index > 0 && encoded[index - 1] == UInt8(ascii: "\r"), "LF at \(index) of \(encoded)") }
        }
        var client = SMTPSessionDataTests.inData()
        client.send(String(decoding: encoded, as: UTF8.self))
        #expect(client.completed.count == 1, "the server takes what the client sends: one message, no smuggled end")
    }
}
