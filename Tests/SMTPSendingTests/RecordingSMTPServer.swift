import NIOCore
import NIOPosix
import Synchronization

/// A loopback SMTP server for one conversation: it answers every command as a willing server does and
/// records the bytes that came after DATA, and whether the message's end (`.` CRLF) came.
final class RecordingSMTPServer: Sendable {
    struct Received: Sendable {
        var data: [UInt8] = []
        var ended = false
        var closed = false
    }

    let port: Int
    let received = Mutex(Received())
    private let channel: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>

    private init(port: Int, channel: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>) {
        self.port = port
        self.channel = channel
    }

    static func start() async throws -> RecordingSMTPServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0) { child in
                child.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: child) }
            }
        guard let port = channel.channel.localAddress?.port else { throw ChannelError.unknownLocalAddress }
        return RecordingSMTPServer(port: port, channel: channel)
    }

    /// Serves the first connection until the client closes it.
    func serveOne() async throws {
        try await channel.executeThenClose { connections in
            for try await connection in connections {
                try await converse(connection)
                return
            }
        }
    }

    private func converse(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async throws {
        try await connection.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: "220 test ready\r\n"))
            var pending: [UInt8] = []
            var inData = false
            for try await buffer in inbound {
                pending += buffer.readableBytesView
                if inData {
                    guard let end = Self.range(of: Array("\r\n.\r\n".utf8), in: pending) else { continue }
                    received.withLock {
                        $0.data = Array(pending[..<end.lowerBound]) + Array("\r\n".utf8)
                        $0.ended = true
                    }
                    pending.removeSubrange(..<end.upperBound)
                    inData = false
                    try await outbound.write(ByteBuffer(string: "250 2.0.0 kept\r\n"))
                }
                while !inData, let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    if line.hasPrefix("DATA") {
                        inData = true
                        try await outbound.write(ByteBuffer(string: "354 go on\r\n"))
                    } else if line.hasPrefix("QUIT") {
                        // The client may close before reading this.
                        try? await outbound.write(ByteBuffer(string: "221 bye\r\n"))
                    } else {
                        try await outbound.write(ByteBuffer(string: "250 ok\r\n"))
                    }
                }
            }
            received.withLock {
                if inData, !$0.ended { $0.data = pending }
                $0.closed = true
            }
        }
    }

    private static func range(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start..<(start + needle.count)
        }
        return nil
    }
}
