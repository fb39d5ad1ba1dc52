import AppleIDProvider
import NIOCore
import NIOPosix
import SMTPWire

/// Sends relayed mail to the upstream SMTP server of `--smtp-smarthost host:port`: one connection
/// per message, EHLO, MAIL, RCPT, DATA, QUIT, bounded in time. A 5xx reply is permanent (a bounce),
/// anything else that fails is tried again later.
package struct SMTPSmarthostTransport: MailTransport {
    package let host: String
    package let port: Int
    package let hostname: String
    package let timeout: Duration

    package init(host: String, port: Int, hostname: String, timeout: Duration = .seconds(60)) {
        self.host = host
        self.port = port
        self.hostname = hostname
        self.timeout = timeout
    }

    /// `host:port` as `--smtp-smarthost` takes it.
    package static func parse(_ text: String, hostname: String) -> SMTPSmarthostTransport? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (1...65_535).contains(port) else { return nil }
        let host = String(text[..<colon])
        return host.isEmpty ? nil : SMTPSmarthostTransport(host: host, port: port, hostname: hostname)
    }

    package func send(from sender: String, to recipient: String, source: [UInt8]) async -> MailTransportResult {
        do {
            return try await withThrowingTaskGroup(of: MailTransportResult.self) { group in
                group.addTask { try await converse(from: sender, to: recipient, source: source) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return .transientFailure("smarthost did not answer within \(timeout)")
                }
                let first = try await group.next() ?? .transientFailure("no answer")
                group.cancelAll()
                return first
            }
        } catch {
            return .transientFailure("smarthost unreachable: \(String(describing: type(of: error)))")
        }
    }

    private func converse(from sender: String, to recipient: String, source: [UInt8]) async throws -> MailTransportResult {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var replies = ReplyStream(inbound: inbound.makeAsyncIterator())
            let steps: [(command: [UInt8], wantedCode: Int)] = [
                ([], 220), (Array("EHLO \(hostname)\r\n".utf8), 250), (Array("MAIL FROM:<\(sender)>\r\n".utf8), 250),
                (Array("RCPT TO:<\(recipient)>\r\n".utf8), 250), (Array("DATA\r\n".utf8), 354), (SMTPDotStuffing.encode(source), 250),
            ]
            for step in steps {
                if !step.command.isEmpty { try await outbound.write(ByteBuffer(bytes: step.command)) }
                let reply = try await replies.next()
                guard reply.code == step.wantedCode || (step.wantedCode == 250 && (200..<300).contains(reply.code)) else {
                    try? await outbound.write(ByteBuffer(string: "QUIT\r\n"))
                    let text = "\(reply.code) \(reply.lines.joined(separator: " "))"
                    return reply.code >= 500 ? .permanentFailure(text) : .transientFailure(text)
                }
            }
            try? await outbound.write(ByteBuffer(string: "QUIT\r\n"))
            return .sent
        }
    }
}

/// Replies read from the smarthost, one at a time.
private struct ReplyStream {
    var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    var reader = SMTPReplyReader()
    var ready: [SMTPReply] = []

    struct ClosedError: Error {}

    mutating func next() async throws -> SMTPReply {
        while ready.isEmpty {
            guard let buffer = try await inbound.next() else { throw ClosedError() }
            ready += try reader.read(buffer.readableBytesView)
        }
        return ready.removeFirst()
    }
}
