import NIOCore
import NIOPosix
import SMTPSending
import SMTPWire
import Testing

/// The SMTP client's own rules; its conversations with a real server are tested through the relay's
/// listener (JuiceTests) and aiosmtpd (`.ci/run`).
@Suite("SMTP client: what it refuses to send, and how a missing server counts", .timeLimit(.minutes(5)))
struct SMTPClientTests {
    // The clients' deadlines (240 s) are bounds, not what is tested: with the whole suite on 2 cores the
    // refused connection's answer waits its turn behind the other tests' tasks, and must not lose to the deadline.
    /// A loopback port nothing listens on (the kernel handed it out and it was closed again).
    static func closedPort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(channel.localAddress?.port)
        try await channel.close()
        return port
    }

    @Test(
        "an address that would end the command line (CR LF, brackets, spaces) is refused before connecting: no command can be smuggled",
        arguments: ["a@example.com>\r\nRCPT TO:<evil@example.com", "a@example.com\nDATA", "a b@example.com", ""])
    func unsafeRecipient(_ recipient: String) async throws {
        let client = SMTPClient(host: "127.0.0.1", port: try await Self.closedPort(), hostname: "client.test", timeout: .seconds(240))
        let result = await client.send(from: "orders@example.com", to: recipient, source: Array("Subject: x\r\n\r\nx\r\n".utf8))
        #expect(result == .permanentFailure("501 5.1.3 the address cannot be written in an SMTP command"))
    }

    @Test("an unsafe sender is refused too; the null sender <> of a bounce is allowed")
    func unsafeSender() async throws {
        let client = SMTPClient(host: "127.0.0.1", port: try await Self.closedPort(), hostname: "client.test", timeout: .seconds(240))
        let source = Array("Subject: x\r\n\r\nx\r\n".utf8)
        #expect(
            await client.send(from: "a@example.com>\r\nRSET", to: "b@example.com", source: source)
                == .permanentFailure("501 5.1.3 the address cannot be written in an SMTP command"))
        if case .transientFailure = await client.send(from: "", to: "b@example.com", source: source) {
        } else {
            Issue.record("the null sender is sent (and fails here only because nothing listens)")
        }
    }

    @Test("no server on the port is a transient failure: the caller may try again later")
    func noServer() async throws {
        let client = SMTPClient(host: "127.0.0.1", port: try await Self.closedPort(), hostname: "client.test", timeout: .seconds(240))
        guard case .transientFailure(let why) = await client.send(from: "a@example.com", to: "b@example.com", source: [])
        else { return #expect(Bool(false), "expected a transient failure") }
        #expect(why.hasPrefix("SMTP server unreachable"))
    }
}
