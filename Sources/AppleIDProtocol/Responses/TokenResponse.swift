/// The JSON answer of `POST /auth/token` (spec §4.4), fields in the order Apple documents them.
public struct TokenResponse: Codable, Sendable, Hashable {
    public var accessToken: String
    public var tokenType: String
    public var expiresIn: Int
    /// Only from the authorization-code grant.
    public var refreshToken: String?
    public var idToken: String?

    public init(accessToken: String, tokenType: String = "Bearer", expiresIn: Int, refreshToken: String?, idToken: String?) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.idToken = idToken
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case idToken = "id_token"
    }
}

/// The JSON body of an OAuth error answer: `{"error": …, "error_description": …}`.
public struct OAuthErrorResponse: Codable, Sendable, Hashable {
    public var error: OAuthErrorCode
    public var errorDescription: String?

    public init(_ error: OAuthError) {
        self.error = error.code
        self.errorDescription = error.errorDescription
    }

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}
