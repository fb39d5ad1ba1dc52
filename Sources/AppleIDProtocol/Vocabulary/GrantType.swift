/// The `grant_type` of a token request (RFC 6749 §4).
public struct GrantType: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let authorizationCode = GrantType(rawValue: "authorization_code")
    public static let refreshToken = GrantType(rawValue: "refresh_token")
    /// Only for user migration after an app transfer (scope `user.migration`).
    public static let clientCredentials = GrantType(rawValue: "client_credentials")
}

/// The `token_type_hint` of a revocation request.
public struct TokenTypeHint: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let refreshToken = TokenTypeHint(rawValue: "refresh_token")
    public static let accessToken = TokenTypeHint(rawValue: "access_token")
}
