/// One scope word of an authorization request.
public struct Scope: RawRepresentable, Hashable, Sendable, Codable, Comparable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let name = Scope(rawValue: "name")
    public static let email = Scope(rawValue: "email")
    /// Not in Apple's REST reference but accepted (libraries send `openid email name`; spec §2).
    public static let openid = Scope(rawValue: "openid")
    /// Client-credentials scope for user migration after an app transfer (spec §4.3).
    public static let userMigration = Scope(rawValue: "user.migration")

    public static let authorizationScopes: Set<Scope> = [.name, .email, .openid]

    public static func < (lhs: Scope, rhs: Scope) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Splits a space-separated `scope` value; `nil` when a word is repeated.
    public static func parse(_ raw: String?) -> [Scope]? {
        let words = (raw ?? "").split(separator: " ", omittingEmptySubsequences: true).map { Scope(rawValue: String($0)) }
        return Set(words).count == words.count ? words : nil
    }

    /// The space-separated wire form, in a stable order.
    public static func join(_ scopes: some Sequence<Scope>) -> String {
        scopes.map(\.rawValue).joined(separator: " ")
    }
}

/// The PKCE `code_challenge_method` (RFC 7636 §4.3). Only `S256` is accepted.
public struct CodeChallengeMethod: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let s256 = CodeChallengeMethod(rawValue: "S256")
    public static let plain = CodeChallengeMethod(rawValue: "plain")
}
