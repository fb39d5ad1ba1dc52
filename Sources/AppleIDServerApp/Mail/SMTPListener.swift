import AppleIDProvider
import AppleIDRelay
import AppleIDServer
import Logging
import NIOCore
import NIOPosix
import SMTPWire
import ServiceLifecycle

/// The private relay's SMTP listener (`siwa serve --smtp-port`, 127.0.0.1:2525 by default): one
/// structured task per connection, each an ``SMTPConversation``.
package struct SMTPListener: Service {
    package let host: String
    package let port: Int
    package let relay: MailRelay
    package let hostname: String
    package let limits: SMTPLimits
    package let logger: Logger
    /// Called with the bound port once the socket listens (port 0 picks one: tests).
    package let onListening: @Sendable (Int) -> Void
    /// Whether a taken port only turns the listener off (the default port, nobody asked for it)
    /// instead of stopping the server.
    package let isOptional: Bool
    /// Where the connections report the message bytes they hold (tests read its peak).
    package let gauge: BufferGauge
    /// Whether a sender must pass SPF for the connecting address before its first recipient
    /// (``MailRelay/authenticateSender(_:clientAddress:)``): on for every bind beyond the loopback.
    package let authenticatesSenders: Bool
    /// The bounds on sessions held at once, overall and per peer address.
    package let admission: SMTPAdmission

    package init(
        host: String, port: Int, relay: MailRelay, hostname: String, limits: SMTPLimits = SMTPLimits(), logger: Logger,
        authenticatesSenders: Bool? = nil, admission: SMTPAdmission = SMTPAdmission(), isOptional: Bool = false, gauge: BufferGauge = BufferGauge(),
        onListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.host = host
        self.port = port
        self.isOptional = isOptional
        self.relay = relay
        self.hostname = hostname
        self.limits = limits
        self.logger = logger
        self.onListening = onListening
        self.gauge = gauge
        self.authenticatesSenders = authenticatesSenders ?? !ServerOptions.isLoopback(host)
        self.admission = admission
    }

    package func run() async throws {
        let server: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
        do {
            server = try await bind()
        } catch  where isOptional && PortCheck.isAddressInUse(error) {
            // Another server took the default port between the start's check and this bind (tests
            // start several at once). Returning would end the whole service group: wait instead.
            logger.warning("SMTP port \(port) is taken: the relay's listener is off (choose one with --smtp-port)")
            try? await gracefulShutdown()
            return
        }
        onListening(server.channel.localAddress?.port ?? port)
        logger.info("SMTP relay listening", metadata: ["host": "\(host)", "port": "\(server.channel.localAddress?.port ?? port)"])
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                try await server.executeThenClose { connections in
                    for try await connection in connections {
                        let peer = connection.channel.remoteAddress?.ipAddress ?? "unknown"
                        guard admission.admit(peer) else {
                            group.addTask { await refuse(connection) }
                            continue
                        }
                        group.addTask {
                            defer { admission.release(peer) }
                            await serve(connection)
                        }
                    }
                }
            }
        } onGracefulShutdown: {
            server.channel.close(promise: nil)
        }
    }

    private func bind() async throws -> NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never> {
        let idle = TimeAmount.nanoseconds(Int64(limits.dataTimeout.components.seconds) * 1_000_000_000)
        return try await NIOPosix.ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    // A client silent for longer than any phase allows is told so and closed.
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: idle))
                    try channel.pipeline.syncOperations.addHandler(SMTPIdleCloser())
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
    }

    /// A connection beyond the session bounds: `421 4.7.0`, then closed (RFC 5321 §3.1 allows 421 as the greeting).
    private func refuse(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        try? await connection.executeThenClose { _, outbound in
            try await outbound.write(ByteBuffer(bytes: SMTPReply.tooManySessions.bytes))
        }
    }

    private func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        do {
            try await connection.executeThenClose { inbound, outbound in
                // Without a peer address to check, every sender is refused (an address that does not parse).
                let client = authenticatesSenders ? connection.channel.remoteAddress?.ipAddress ?? "unknown" : nil
                var conversation = SMTPConversation(
                    relay: relay, hostname: hostname, limits: limits, logger: logger, gauge: gauge, authenticatedClient: client)
                try await conversation.run(inbound: inbound, outbound: outbound)
            }
        } catch {
            logger.debug("SMTP connection ended", metadata: ["error": "\(String(reflecting: type(of: error)))"])
        }
    }
}

/// Closes a connection on `IdleStateHandler`'s read timeout, with the 421 RFC 5321 §4.5.3.2 asks for.
final class SMTPIdleCloser: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        let channel = context.channel
        context.writeAndFlush(NIOAny(ByteBuffer(bytes: SMTPReply.timeout.bytes))).whenComplete { _ in channel.close(promise: nil) }
    }
}
