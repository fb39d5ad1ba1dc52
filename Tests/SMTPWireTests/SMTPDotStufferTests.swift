import SMTPWire
import Testing

@Suite("Dot-stuffing a piece at a time")
struct SMTPDotStufferTests {
    @Test(
        "every split of a message into two pieces, and one byte at a time, encodes as the whole does",
        arguments: ["a\rb", "a\r.\rb", "\r", "x\r\r\n", "\n.\n", "a\r\n.\r", ".lead\r\n..two\r\n.\r\nend", "no end", ""])
    func splitsEncodeAsWhole(text: String) {
        let message = Array(text.utf8)
        let whole = SMTPDotStuffing.encode(message)
        for split in 0...message.count {
            var stuffer = SMTPDotStuffer()
            let pieces = stuffer.encode(message[..<split]) + stuffer.encode(message[split...]) + stuffer.finish()
            #expect(pieces == whole, "split at \(split) of \(text.debugDescription)")
        }
        var stuffer = SMTPDotStuffer()
        let bytes = message.flatMap { stuffer.encode([$0]) } + stuffer.finish()
        #expect(bytes == whole)
    }

    @Test("a dot that starts a piece after a line end in the piece before is doubled")
    func dotAtPieceStart() {
        var stuffer = SMTPDotStuffer()
        let out = stuffer.encode(Array("a\r".utf8)) + stuffer.encode(Array("\n.b\r\n".utf8)) + stuffer.finish()
        #expect(String(decoding: out, as: UTF8.self) == "a\r\n..b\r\n.\r\n")
    }
}
