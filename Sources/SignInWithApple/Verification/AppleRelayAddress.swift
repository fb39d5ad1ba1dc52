/// Hide My Email relay addresses: the domains Apple forwards from, old and new.
///
/// Apple's relay addresses were all under `privaterelay.appleid.com` until Apple announced, on
/// 16 June 2026, new ones under `private.icloud.com` beside them. An app that recognises relay
/// addresses by the old domain alone takes the new ones for real addresses (offers to link accounts
/// by them, shows them as the user's address). Prefer the token's `is_private_email`; this is for
/// addresses that arrive without it (stored ones, a notification, mail).
///
/// ```swift
/// AppleRelayAddress.isRelayAddress("x7p2@private.icloud.com")          // true
/// AppleRelayAddress.isRelayAddress("maria@icloud.com")                  // false
/// ```
public enum AppleRelayAddress {
    /// Every domain Apple's relay addresses are under, oldest first.
    public static let domains = ["privaterelay.appleid.com", "private.icloud.com"]

    /// Whether `address` is exactly `local@domain` with `domain` one of ``domains`` (ASCII case
    /// ignored, as DNS does; a subdomain or a longer name is not a relay address).
    public static func isRelayAddress(_ address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return false }
        let domain = parts[1].lowercasedASCII
        return domains.contains { $0 == domain }
    }
}

extension Substring {
    /// Lower-cased in ASCII only: a domain with another letter that lower-cases to ASCII (the Kelvin
    /// sign, a dotted capital I) is not one of Apple's.
    fileprivate var lowercasedASCII: String {
        String(String.UnicodeScalarView(unicodeScalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar($0.value + 32)! : $0 }))
    }
}
