import AppleIDProvider
import NIOCore

/// Where DNS questions go: `host`, `host:port`, `[v6]:port`, or the system's resolver.
public enum ResolverAddress {
    static let resolvConfPath = "/etc/resolv.conf"

    /// The first `nameserver` line of a resolv.conf(5); with none, the local host, as the C library
    /// assumes.
    public static func firstNameserver(inResolvConf text: String) -> String {
        for line in text.split(whereSeparator: \.isNewline) {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.count >= 2, fields[0] == "nameserver" { return String(fields[1]) }
        }
        return "127.0.0.1"
    }

    /// An IP address with an optional port (53 by default): `127.0.0.1`, `127.0.0.1:5353`, `::1`,
    /// `[::1]:5353`. Names are refused: resolving the resolver would need a resolver.
    public static func parse(_ text: String) throws(TXTLookupError) -> SocketAddress {
        var host = text
        var port = 53
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if rest.hasPrefix(":") {
                guard let value = Int(rest.dropFirst()) else { throw TXTLookupError("\(text) has no valid port") }
                port = value
            }
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            host = String(text[..<colon])
            guard let value = Int(text[text.index(after: colon)...]) else { throw TXTLookupError("\(text) has no valid port") }
            port = value
        }
        guard (1...65535).contains(port), let address = try? SocketAddress(ipAddress: host, port: port) else {
            throw TXTLookupError("\(text) is not an IP address with an optional port")
        }
        return address
    }
}
