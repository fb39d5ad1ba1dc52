import AppleIDProvider
import AppleIDRelay
import Logging
import NIOCore
import SMTPWire

/// One SMTP connection: feeds the bytes to the session, asks the relay what the session leaves to
/// it, and writes the replies. Reading waits while the relay decides, which is the backpressure a
/// pipelining client gets.
struct SMTPConversation: ~Copyable {
    let relay: MailRelay
    let logger: Logger
    let start = ContinuousClock.now
    var session: SMTPSession
    var spool: MessageSpool
    /// The peer's address when senders are authenticated (SMTP beyond the loopback), else `nil`.
    let authenticatedClient: String?
    /// The last sender checked and the refusal, if any: one SPF check per sender, not per recipient.
    var senderVerdict: (sender: String, refusal: SMTPReply?)?

    init(relay: MailRelay, hostname: String, limits: SMTPLimits, logger: Logger, gauge: BufferGauge, authenticatedClient: String? = nil) {
        self.relay = relay
        self.authenticatedClient = authenticatedClient
        self.logger = logger
        self.spool = MessageSpool(gauge: gauge)
        self.session = SMTPSession(hostname: hostname, limits: limits, now: .zero)
    }

    var now: Duration { ContinuousClock.now - start }

    mutating func run(inbound: NIOAsyncChannelInboundStream<ByteBuffer>, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        try await outbound.write(ByteBuffer(bytes: session.greeting.bytes))
        for try await buffer in inbound {
            // A client that trickles a command byte by byte is still held to the command timeout.
            var events = session.checkTimeout(now: now)
            if events.isEmpty { events = session.receive(buffer.readableBytesView, now: now) }
            try await handle(events, outbound: outbound)
            if session.isClosed { return }
        }
        try await handle(session.inputEnded(), outbound: outbound)
    }

    /// Runs the events, and those that answering a decision brings, then writes the replies at once.
    private mutating func handle(_ first: [SMTPSession.Event], outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        var events = first[...]
        var out = ByteBuffer()
        while let event = events.popFirst() {
            switch event {
            case .reply(let reply): out.writeBytes(reply.bytes)
            case .messageBytes(let bytes): try spool.append(bytes)
            case .messageAborted: spool.discard()
            case .checkRecipient(let recipient, let sender):
                let reply =
                    if let refusal = await senderRefusal(sender.address) {
                        refusal
                    } else {
                        await answer { try await relay.checkRecipient(recipient.address, sender: sender.address) }
                    }
                events += session.resolve(reply, now: now)
            case .messageComplete(let envelope):
                // The relay reads the spool in chunks while it decides; the spool is emptied after.
                let message = spool.message()
                let reply = await answer {
                    try await relay.accept(sender: envelope.sender.address, recipients: envelope.recipients.map(\.address), message: message)
                }
                spool.discard()
                events += session.resolve(reply, now: now)
            case .close:
                if out.readableBytes > 0 { try await outbound.write(out) }
                return
            }
        }
        if out.readableBytes > 0 { try await outbound.write(out) }
    }

    /// Beyond the loopback, why the sender is not taken from this connection (SPF), checked before
    /// its first recipient so that no unauthenticated message reaches DATA.
    private mutating func senderRefusal(_ sender: String) async -> SMTPReply? {
        guard let client = authenticatedClient else { return nil }
        if let verdict = senderVerdict, verdict.sender == sender { return verdict.refusal }
        let refusal = await relay.authenticateSender(sender, clientAddress: client)
        senderVerdict = (sender, refusal)
        return refusal
    }

    /// The relay's answer; a failure of the store is a 451 (try again later), never a 250, and its
    /// detail stays in the log.
    private func answer(_ decide: () async throws -> SMTPReply) async -> SMTPReply {
        do {
            return try await decide()
        } catch {
            logger.error("relay could not decide", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            return SMTPReply(451, "4.3.0 Temporary failure, please try again later")
        }
    }
}
