import Foundation
import SMTPWire
import Testing

@Suite("Message headers (RFC 5322 §2.2)")
struct MessageHeadersTests {
    @Test("fields are unfolded, names case-insensitive, and the body starts after the empty line")
    func parse() {
        let message = Array("From: News <news@example.com>\r\nSubject: a long\r\n\tsubject\r\nX-Empty:\r\n\r\nBody: not a header\r\n".utf8)
        let headers = MessageHeaders.parse(message)
        #expect(headers.fields.map(\.name) == ["From", "Subject", "X-Empty"])
        #expect(headers.value("subject") == "a long subject")
        #expect(headers.value("x-empty") == "")
        #expect(headers.value("Body") == nil)
        #expect(String(decoding: message[headers.bodyStart...], as: UTF8.self) == "Body: not a header\r\n")
        #expect(String(decoding: headers.fields[1].raw, as: UTF8.self) == "Subject: a long\r\n\tsubject\r\n")
    }

    @Test(
        "a line that is no field ends the header section; bare LF is a line end",
        arguments: [
            ("A: 1\nB: 2\n\nbody", ["A", "B"]),
            ("A: 1\r\nnot a field\r\nB: 2\r\n", ["A"]),
            (" stray\r\nA: 1\r\n", ["A"]),
            (": no name\r\n", []),
            ("", []),
        ])
    func lenient(text: String, names: [String]) {
        #expect(MessageHeaders.parse(Array(text.utf8)).fields.map(\.name) == names)
    }
}

@Suite("The client's side: replies and dot-stuffing")
struct SMTPClientWireTests {
    @Test("multi-line replies are joined; a reply split across reads is completed by the next")
    func replies() throws {
        var reader = SMTPReplyReader()
        #expect(try reader.read(Array("250-first\r\n250-SIZE 1\r".utf8)) == [])
        #expect(try reader.read(Array("\n250 last\r\n354 go\r\n".utf8)) == [SMTPReply(250, ["first", "SIZE 1", "last"]), SMTPReply(354, "go")])
        #expect(throws: SMTPReplyReader.ReadError.self) { try reader.read(Array("hello\r\n".utf8)) }
    }

    @Test("dot-stuffing round-trips through the server's unstuffing", arguments: ["a\r\n.b\r\n..\r\n", ".\r\n", "no end", "bare\nlf\n.x"])
    func dotStuffing(text: String) {
        var client = SMTPSessionDataTests.inData()
        client.send(String(decoding: SMTPDotStuffing.encode(Array(text.utf8)), as: UTF8.self))
        #expect(client.completed.count == 1)
        var expected = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
        if !expected.hasSuffix("\r\n") { expected += "\r\n" }
        #expect(String(decoding: client.message, as: UTF8.self) == expected)
    }
}
