/// An address of a reverse-path or forward-path (RFC 5321 §4.1.2): `local@domain`, or the null
/// reverse-path `<>` of bounces. Kept as text, lower-cased domain; source routes are dropped.
public struct MailPath: Sendable, Hashable, CustomStringConvertible {
    /// `""` for the null reverse-path.
    public var address: String

    public init(address: String) { self.address = address }

    public var isNull: Bool { address.isEmpty }
    public var localPart: Substring { address.lastIndex(of: "@").map { address[..<$0] } ?? Substring(address) }
    public var domain: Substring { address.lastIndex(of: "@").map { address[address.index(after: $0)...] } ?? "" }
    public var description: String { "<\(address)>" }

    /// Reads `<local@domain>` (angle brackets required, RFC 5321 §4.1.2); `nil` when malformed.
    public static func parse(_ text: Substring, allowNull: Bool) -> MailPath? {
        guard text.first == "<", text.last == ">", text.count >= 2 else { return nil }
        var inner = text.dropFirst().dropLast()
        if inner.isEmpty { return allowNull ? MailPath(address: "") : nil }
        // An obsolete source route (`@a,@b:user@host`) is ignored, as §C of RFC 5321 allows.
        if inner.first == "@", let colon = inner.firstIndex(of: ":") { inner = inner[inner.index(after: colon)...] }
        guard let at = inner.lastIndex(of: "@") else { return nil }
        let local = inner[..<at]
        let domain = inner[inner.index(after: at)...]
        guard !local.isEmpty, local.utf8.count <= 64, !domain.isEmpty, domain.utf8.count <= 255 else { return nil }
        let forbidden: (Character) -> Bool = { $0.isWhitespace || $0 == "<" || $0 == ">" || $0.asciiValue.map { $0 < 32 || $0 == 127 } == true }
        guard !local.contains(where: forbidden), !domain.contains(where: forbidden), !domain.contains("@") else { return nil }
        return MailPath(address: "\(local)@\(domain.lowercased())")
    }
}
