/// Which hosts and addresses a notification may be sent to outside development mode: public
/// addresses reached by a host name. Everything a server-side request forgery aims at is refused:
/// the server itself, its private network, link-local and cloud metadata services.
public enum NotificationDestinationRule {
    /// Whether `host` is an IP address written as such, in any of the forms resolvers accept:
    /// `127.0.0.1`, `[::1]`, `2130706433`, `0x7f.1`, `0177.0.0.1`. A DNS name's last label is never
    /// numeric (top-level domains are alphabetic), so a numeric last label means an address.
    static func isIPLiteral(_ host: String) -> Bool {
        let name = host.lowercased().trimmingTrailingDot
        if name.contains(":") { return true }
        guard let last = name.split(separator: ".", omittingEmptySubsequences: false).last, !last.isEmpty else { return false }
        if last.allSatisfy(\.isASCIIDigit) { return true }
        return last.hasPrefix("0x") && last.dropFirst(2).allSatisfy(\.isHexDigit)
    }

    /// Whether `address` is a public unicast address: not in one of the ``refusedRanges``, and for
    /// IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4), not embedding a refused one.
    public static func isPublic(_ address: EndpointAddress) -> Bool {
        if let embedded = embeddedIPv4(address.bytes) {
            return isPublic(EndpointAddress(ipv4: embedded[0], embedded[1], embedded[2], embedded[3]))
        }
        return !refusedRanges.contains { $0.contains(address.bytes) }
    }

    /// A prefix of addresses: `bytes` (4 or 16) whose first `length` bits are those of `prefix`.
    public struct AddressRange: Sendable, Hashable {
        let prefix: [UInt8]
        let length: Int

        func contains(_ bytes: [UInt8]) -> Bool {
            guard bytes.count == prefix.count else { return false }
            for bit in 0..<length {
                let mask = UInt8(0x80) >> (bit % 8)
                if bytes[bit / 8] & mask != prefix[bit / 8] & mask { return false }
            }
            return true
        }
    }

    static func v4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8, _ length: Int) -> AddressRange {
        AddressRange(prefix: [a, b, c, d], length: length)
    }

    static func v6(_ head: [UInt8], _ length: Int) -> AddressRange {
        AddressRange(prefix: head + Array(repeating: 0, count: 16 - head.count), length: length)
    }

    /// RFC 6890's special-purpose registries, the parts a request forgery could use.
    static let refusedRanges: [AddressRange] = [
        v4(0, 0, 0, 0, 8),  // "this network", 0.0.0.0 reaches the local host
        v4(10, 0, 0, 0, 8),  // private (RFC 1918)
        v4(100, 64, 0, 0, 10),  // carrier-grade NAT (RFC 6598), also Alibaba's metadata 100.100.100.200
        v4(127, 0, 0, 0, 8),  // loopback
        v4(169, 254, 0, 0, 16),  // link-local, the cloud metadata service 169.254.169.254
        v4(168, 63, 129, 16, 32),  // Azure's platform endpoint
        v4(172, 16, 0, 0, 12),  // private
        v4(192, 0, 0, 0, 24),  // IETF protocol assignments
        v4(192, 168, 0, 0, 16),  // private
        v4(198, 18, 0, 0, 15),  // benchmarking
        v4(224, 0, 0, 0, 4),  // multicast
        v4(240, 0, 0, 0, 4),  // reserved, and the broadcast address
        v6([], 96),  // ::, ::1 and the deprecated IPv4-compatible addresses
        v6([0xfc], 7),  // unique local (fc00::/7), AWS's IPv6 metadata fd00:ec2::254
        v6([0xfe, 0x80], 10),  // link-local
        v6([0xfe, 0xc0], 10),  // site-local (deprecated)
        v6([0xff], 8),  // multicast
    ]

    /// The IPv4 address inside `::ffff:a.b.c.d` (mapped), `64:ff9b::a.b.c.d` (NAT64) and `2002:aabb:ccdd::` (6to4).
    static func embeddedIPv4(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count == 16 else { return nil }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff { return Array(bytes[12..<16]) }
        if Array(bytes[0..<12]) == [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0] { return Array(bytes[12..<16]) }
        if bytes[0] == 0x20 && bytes[1] == 0x02 { return Array(bytes[2..<6]) }
        return nil
    }
}

extension String {
    fileprivate var trimmingTrailingDot: Substring { hasSuffix(".") ? dropLast() : Substring(self) }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
