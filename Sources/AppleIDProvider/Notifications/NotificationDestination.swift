import Foundation

/// One IP address of a notification endpoint's host, as a resolver found it.
public struct EndpointAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 (IPv6), in network order.
    public let bytes: [UInt8]
    /// The address as the HTTP client connects to it: `192.0.2.1`, `2001:db8::1`.
    public let text: String

    /// `nil` unless `bytes` holds 4 or 16 bytes.
    public init?(bytes: [UInt8], text: String) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
        self.text = text
    }

    /// An IPv4 address from its four numbers.
    public init(ipv4 a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        bytes = [a, b, c, d]
        text = "\(a).\(b).\(c).\(d)"
    }

    public var description: String { text }
}

/// Finds the addresses of a notification endpoint's host. `siwa serve` injects the system's
/// resolver (getaddrinfo); tests inject a table, so no test needs DNS.
public protocol EndpointAddressResolver: Sendable {
    /// The host's addresses, the one to connect to first. Throws when the name does not resolve.
    func addresses(of host: String) async throws -> [EndpointAddress]
}

/// The resolver of an engine that was given none: every name fails to resolve, so outside
/// development mode nothing is delivered until a real resolver is configured.
public struct UnconfiguredEndpointAddressResolver: EndpointAddressResolver {
    public struct Unconfigured: Error {}
    public init() {}
    public func addresses(of host: String) async throws -> [EndpointAddress] { throw Unconfigured() }
}

/// Where one notification goes: the endpoint's URL and, outside development mode, the address that
/// was checked, which is the only one the sender may connect to (a second lookup could answer
/// differently: DNS rebinding).
public struct NotificationDestination: Sendable, Hashable {
    public let url: String
    /// The URL's host: the `Host` header, the TLS server name and the name the certificate must match.
    public let host: String
    /// The checked address to connect to; `nil` in development mode, where the sender resolves the host itself.
    public let address: EndpointAddress?

    public init(url: String, host: String, address: EndpointAddress?) {
        self.url = url
        self.host = host
        self.address = address
    }
}

/// Answers from a table, for tests and emulators: a name missing from it does not resolve.
public struct StaticEndpointAddressResolver: EndpointAddressResolver {
    public struct NotFound: Error {}
    let table: [String: [EndpointAddress]]

    public init(_ table: [String: [EndpointAddress]]) { self.table = table }

    public func addresses(of host: String) async throws -> [EndpointAddress] {
        guard let addresses = table[host.lowercased()] else { throw NotFound() }
        return addresses
    }
}
