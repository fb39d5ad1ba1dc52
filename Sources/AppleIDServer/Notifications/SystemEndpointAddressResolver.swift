import AppleIDProvider
import NIOCore
import NIOPosix

/// The system's resolver (getaddrinfo, so `/etc/hosts` and the configured DNS servers count) for
/// notification endpoints. It answers the first address only, the one a client would connect to;
/// the engine checks it and the sender connects to exactly that one.
public struct SystemEndpointAddressResolver: EndpointAddressResolver {
    public struct NoAddress: Error {}

    public init() {}

    public func addresses(of host: String) async throws -> [EndpointAddress] {
        // getaddrinfo blocks: it runs on NIO's thread pool, not on a cooperative thread.
        let address = try await NIOThreadPool.singleton.runIfActive { try SocketAddress.makeAddressResolvingHost(host, port: 443) }
        let bytes: [UInt8]
        switch address {
        case .v4(let v4): bytes = withUnsafeBytes(of: v4.address.sin_addr) { Array($0) }
        case .v6(let v6): bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
        case .unixDomainSocket: throw NoAddress()
        }
        guard let text = address.ipAddress, let resolved = EndpointAddress(bytes: bytes, text: text) else { throw NoAddress() }
        return [resolved]
    }
}
