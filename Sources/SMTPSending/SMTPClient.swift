import NIOCore
import NIOPosix
import SMTPWire

/// Sends one message to an SMTP server: one connection, EHLO, MAIL, RCPT, DATA, QUIT, bounded in
/// time. The relay's smarthost queue and Juice's order confirmations both send through it.
public struct SMTPClient: Sendable {
    public let host: String
    public let port: Int
    /// The name this client gives in EHLO.
    public let hostname: String
    /// The longest one message may take, connection included.
    public let timeout: Duration

    public init(host: String, port: Int, hostname: String, timeout: Duration = .seconds(60)) {
        self.host = host
        self.port = port
        self.hostname = hostname
        self.timeout = timeout
    }

    /// Sends `source` (an RFC 5322 message) from `sender` to `recipient`. A 5xx reply is permanent,
    /// anything else that fails (a 4xx, no connection, no answer in time) is transient. Addresses
    /// that could break the command line (CR, LF, angle brackets) are refused before connecting.
    public func send(from sender: String, to recipient: String, source: [UInt8]) async -> SMTPDeliveryResult {
        await send(from: sender, to: recipient) { try await $0(source[...]) }
    }

    /// Sends a message that `pieces` lends a piece at a time (read from storage as it goes out), each
    /// dot-stuffed as it passes. When `pieces` throws, the connection closes before the message's
    /// end, so the server keeps nothing of it, and the failure is transient.
    public func send(
        from sender: String, to recipient: String,
        pieces: @escaping @Sendable (_ body: (ArraySlice<UInt8>) async throws -> Void) async throws -> Void
    ) async -> SMTPDeliveryResult {
        guard Self.isSafePath(sender), Self.isSafePath(recipient), !recipient.isEmpty else {
            return .permanentFailure("501 5.1.3 the address cannot be written in an SMTP command")
        }
        do {
            return try await withThrowingTaskGroup(of: SMTPDeliveryResult.self) { group in
                group.addTask { try await converse(from: sender, to: recipient, pieces: pieces) }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return .transientFailure("the SMTP server did not answer within \(timeout)")
                }
                let first = try await group.next() ?? .transientFailure("no answer")
                group.cancelAll()
                return first
            }
        } catch let failure as UnreadableMessage {
            return .transientFailure("the message could not be read: \(String(describing: type(of: failure.cause)))")
        } catch {
            return .transientFailure("SMTP server unreachable: \(String(describing: type(of: error)))")
        }
    }

    /// A reverse or forward path as MAIL and RCPT carry it: no controls, spaces or brackets.
    static func isSafePath(_ address: String) -> Bool {
        !address.unicodeScalars.contains { $0.value < 0x21 || $0.value == 0x7F || $0 == "<" || $0 == ">" }
    }

    private func converse(
        from sender: String, to recipient: String, pieces: @Sendable (_ body: (ArraySlice<UInt8>) async throws -> Void) async throws -> Void
    ) async throws -> SMTPDeliveryResult {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(10))
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var replies = ReplyStream(inbound: inbound.makeAsyncIterator())
            let steps: [(command: [UInt8], wantedCode: Int)] = [
                ([], 220), (Array("EHLO \(hostname)\r\n".utf8), 250), (Array("MAIL FROM:<\(sender)>\r\n".utf8), 250),
                (Array("RCPT TO:<\(recipient)>\r\n".utf8), 250), (Array("DATA\r\n".utf8), 354), ([], 250),
            ]
            for (index, step) in steps.enumerated() {
                if !step.command.isEmpty { try await outbound.write(ByteBuffer(bytes: step.command)) }
                if index == steps.count - 1 { try await writeMessage(pieces, to: outbound) }
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

extension SMTPClient {
    /// The message after DATA's 354, a piece at a time as `pieces` lends it, then `.` CRLF.
    fileprivate func writeMessage(
        _ pieces: @Sendable (_ body: (ArraySlice<UInt8>) async throws -> Void) async throws -> Void,
        to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) async throws {
        var stuffer = SMTPDotStuffer()
        do {
            try await pieces { piece in
                let encoded = stuffer.encode(piece)
                do { try await outbound.write(ByteBuffer(bytes: encoded)) } catch { throw ConnectionFailure(cause: error) }
            }
        } catch let failure as ConnectionFailure {
            throw failure.cause
        } catch {
            throw UnreadableMessage(cause: error)
        }
        try await outbound.write(ByteBuffer(bytes: stuffer.finish()))
    }
}

/// What the message's `pieces` threw, told apart from the connection's own failures.
private struct UnreadableMessage: Error {
    let cause: any Error
}

/// A write to the server that failed while the message's pieces were being lent.
private struct ConnectionFailure: Error {
    let cause: any Error
}

/// Replies read from the server, one at a time.
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
