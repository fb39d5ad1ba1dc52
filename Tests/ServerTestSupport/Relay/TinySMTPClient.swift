import NIOCore
import NIOPosix
import SMTPWire

/// A tiny SMTP client over 127.0.0.1 for the listener's tests: writes text, reads replies.
package struct TinySMTPClient: ~Copyable {
    let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
    var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    var reader = SMTPReplyReader()
    var ready: [SMTPReply] = []

    package struct Failure: Error, CustomStringConvertible { package var description: String }

    package init(port: Int) async throws {
        channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.allowRemoteHalfClosure, value: true)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        inbound = channel.inbound.makeAsyncIterator()
    }

    package func send(_ text: String) async throws { try await channel.outbound.write(ByteBuffer(string: text)) }

    /// Closes the client's writing side only (a half-close).
    package func endOutput() async throws {
        channel.outbound.finish()
        try await channel.channel.close(mode: .output)
    }

    /// Every client ends with this (NIO asks that the writer be finished).
    package func close() async {
        channel.outbound.finish()
        try? await channel.channel.close()
    }

    /// A test cut off by its time limit never reaches ``close()``: a writer deinited unfinished stops
    /// the whole test process (NIO's precondition), so the client finishes it on its way out too.
    deinit {
        channel.outbound.finish()
        channel.channel.close(promise: nil)
    }

    /// The next `count` replies.
    package mutating func replies(_ count: Int) async throws -> [SMTPReply] {
        while ready.count < count {
            guard let buffer = try await nextBuffer() else { throw Failure(description: "closed after \(ready)") }
            ready += try reader.read(buffer.readableBytesView)
        }
        defer { ready.removeFirst(count) }
        return Array(ready.prefix(count))
    }

    /// Reads to the end: returns once the server closed the connection.
    package mutating func isClosedByServer() async throws -> Bool {
        while let buffer = try await nextBuffer() { ready += try reader.read(buffer.readableBytesView) }
        return true
    }

    /// Unbounded here: the tests that use it carry a time limit.
    private mutating func nextBuffer() async throws -> ByteBuffer? { try await inbound.next() }
}
