import AppleIDProvider
import Foundation
import NIOCore
import NIOPosix

/// Asks one DNS server for TXT records over UDP (RFC 1035 §4.2.1): one query, the first matching
/// answer from that server, or a failure after `timeout`. A truncated answer is a failure: SPF
/// records fit in UDP, and TCP is not spoken here.
public struct UDPTXTResolver: TXTResolver {
    public let server: SocketAddress
    public let timeout: Duration
    /// Waits out `timeout` for a lookup of a name: the clock's sleep, unless a test decides when the
    /// wait is over, so that no answer of a test depends on how busy the machine is.
    let waitOut: @Sendable (Duration, String) async throws -> Void

    public init(
        server: SocketAddress, timeout: Duration = .seconds(3),
        waitOut: @escaping @Sendable (Duration, String) async throws -> Void = { duration, _ in try await Task.sleep(for: duration) }
    ) {
        self.server = server
        self.timeout = timeout
        self.waitOut = waitOut
    }

    /// The first `nameserver` of `/etc/resolv.conf`, as the system's own lookups use.
    public static func system(timeout: Duration = .seconds(3)) throws -> UDPTXTResolver {
        let text = (try? String(contentsOfFile: ResolverAddress.resolvConfPath, encoding: .utf8)) ?? ""
        return UDPTXTResolver(server: try ResolverAddress.parse(ResolverAddress.firstNameserver(inResolvConf: text)), timeout: timeout)
    }

    public func txtRecords(of domain: String) async throws(TXTLookupError) -> TXTAnswer {
        // The id is random so that an off-path sender cannot guess it (RFC 5452 §9.2).
        let id = UInt16.random(in: .min ... .max)
        let query = try DNSMessage.txtQuery(id: id, name: domain)
        do {
            return try await exchange(query, id: id, name: domain)
        } catch let error as TXTLookupError {
            throw error
        } catch {
            throw TXTLookupError("the DNS server \(server) could not be asked: \(error)")
        }
    }

    private func exchange(_ query: [UInt8], id: UInt16, name: String) async throws -> TXTAnswer {
        let (server, timeout, waitOut) = (server, timeout, waitOut)
        let channel = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: server.protocol == .inet6 ? "::" : "0.0.0.0", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<AddressedEnvelope<ByteBuffer>, AddressedEnvelope<ByteBuffer>>(wrappingChannelSynchronously: channel)
                }
            }
        return try await withThrowingTaskGroup(of: TXTAnswer.self) { group in
            group.addTask {
                try await channel.executeThenClose { inbound, outbound in
                    try await outbound.write(AddressedEnvelope(remoteAddress: server, data: ByteBuffer(bytes: query)))
                    for try await envelope in inbound where envelope.remoteAddress == server {
                        if let answer = try DNSMessage.txtAnswer(Array(buffer: envelope.data), id: id, name: name) { return answer }
                    }
                    throw TXTLookupError("the DNS socket closed before an answer came")
                }
            }
            group.addTask {
                try await waitOut(timeout, name)
                try Task.checkCancellation()
                throw TXTLookupError("no answer from the DNS server \(server) within \(timeout)")
            }
            defer { group.cancelAll() }
            guard let answer = try await group.next() else { throw TXTLookupError("the DNS lookup ended without an answer") }
            return answer
        }
    }
}
