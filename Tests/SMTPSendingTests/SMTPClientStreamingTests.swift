import SMTPSending
import SMTPWire
import Testing

@Suite("SMTP client: a message sent a piece at a time", .timeLimit(.minutes(5)))
struct SMTPClientStreamingTests {
    // The clients' deadlines (240 s) are bounds, not what is tested: run with the whole suite on 2 cores,
    // every step of a conversation waits its turn behind the other tests' tasks, and at the start of the
    // run that took 80 s and more (30 s deadlines failed these tests there).
    struct ReadFailed: Error {}

    @Test("pieces go out dot-stuffed as they come, and the server receives the message the whole would have been")
    func piecesArriveWhole() async throws {
        let server = try await RecordingSMTPServer.start()
        async let served: Void = server.serveOne()
        let message = Array("Subject: pieces\r\n\r\n.first line starts with a dot\r\nsecond\r".utf8) + Array("\n.third\r\n".utf8)
        let split = 47
        let client = SMTPClient(host: "127.0.0.1", port: server.port, hostname: "client.test", timeout: .seconds(240))
        let result = await client.send(from: "a@example.com", to: "b@example.com") { body in
            try await body(message[..<split])
            try await body(message[split...])
        }
        try await served
        #expect(result == .sent)
        let received = server.received.withLock { $0 }
        #expect(received.ended)
        let whole = SMTPDotStuffing.encode(message)
        #expect(received.data == Array(whole.dropLast(3)), "the bytes before the final dot are those of the whole message, stuffed")
    }

    @Test("when the message cannot be read halfway, the connection closes before its end: the server keeps nothing, and the failure is transient")
    func unreadableMessageIsNotEnded() async throws {
        let server = try await RecordingSMTPServer.start()
        async let served: Void = server.serveOne()
        let client = SMTPClient(host: "127.0.0.1", port: server.port, hostname: "client.test", timeout: .seconds(240))
        let result = await client.send(from: "a@example.com", to: "b@example.com") { body in
            try await body(Array("Subject: half\r\n\r\nfirst half\r\n".utf8)[...])
            throw ReadFailed()
        }
        try await served
        guard case .transientFailure(let why) = result else { return #expect(Bool(false), "expected a transient failure, got \(result)") }
        #expect(why == "the message could not be read: ReadFailed")
        let received = server.received.withLock { $0 }
        #expect(received.closed)
        #expect(!received.ended, "no `.` CRLF: the server must not take the half it got")
        #expect(String(decoding: received.data, as: UTF8.self).contains("first half"))
    }
}
