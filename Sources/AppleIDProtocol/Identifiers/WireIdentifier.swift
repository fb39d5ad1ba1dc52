/// A string identifier that travels on the wire unchanged (Team ID, client ID, key ID, subject).
///
/// Each identifier is its own type so that a Team ID can never be passed where a client ID is
/// expected; all of them encode as a bare JSON string. Equality and hashing are byte-exact (see
/// ``WireMatch``): an identifier that merely looks the same under Unicode canonical equivalence is
/// another identifier.
public protocol WireIdentifier: RawRepresentable, Hashable, Sendable, Codable, Comparable,
    CustomStringConvertible, ExpressibleByStringLiteral
where RawValue == String {
    init(rawValue: String)
}

extension WireIdentifier {
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public var description: String { rawValue }
    /// UTF-8 byte order, which is code-point order and SQLite's `BINARY` collation.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8) }
    public static func == (lhs: Self, rhs: Self) -> Bool { WireMatch.exact(lhs.rawValue, rhs.rawValue) }
    public func hash(into hasher: inout Hasher) {
        for byte in rawValue.utf8 { hasher.combine(byte) }
        hasher.combine(0xFF as UInt8)  // never a UTF-8 byte: ends the value, so "ab"+"c" ≠ "a"+"bc"
    }
}

/// A developer team's 10-character identifier; the `iss` of every client secret.
public struct TeamID: WireIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A `client_id`: an App ID (bundle ID) for native apps or a Services ID for the web.
public struct ClientID: WireIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// The 10-character identifier of a developer's Sign in with Apple private key (`AuthKey_<KeyID>.p8`).
public struct KeyID: WireIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// The `kid` of one of the identity provider's RSA signing keys, as published in `/auth/keys`.
public struct SigningKeyID: WireIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A team-scoped user identifier, the `sub` claim (`NNNNNN.<32 hex>.NNNN`).
public struct Subject: WireIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}
