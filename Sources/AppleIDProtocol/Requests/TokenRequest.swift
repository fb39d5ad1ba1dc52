/// The form body of `POST /auth/token` (spec §4), every field as it arrived.
public struct TokenRequest: Codable, Sendable, Hashable {
    public var grantType: String?
    public var clientID: String?
    public var clientSecret: String?
    public var code: String?
    public var redirectURI: String?
    public var refreshToken: String?
    public var codeVerifier: String?
    public var scope: String?

    public init(
        grantType: String? = nil, clientID: String? = nil, clientSecret: String? = nil, code: String? = nil,
        redirectURI: String? = nil, refreshToken: String? = nil, codeVerifier: String? = nil, scope: String? = nil
    ) {
        self.grantType = grantType
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.code = code
        self.redirectURI = redirectURI
        self.refreshToken = refreshToken
        self.codeVerifier = codeVerifier
        self.scope = scope
    }

    enum CodingKeys: String, CodingKey {
        case grantType = "grant_type"
        case clientID = "client_id"
        case clientSecret = "client_secret"
        case code
        case redirectURI = "redirect_uri"
        case refreshToken = "refresh_token"
        case codeVerifier = "code_verifier"
        case scope
    }
}

/// The form body of `POST /auth/revoke` (spec §6).
public struct RevocationRequest: Codable, Sendable, Hashable {
    public var clientID: String?
    public var clientSecret: String?
    public var token: String?
    public var tokenTypeHint: String?

    public init(clientID: String? = nil, clientSecret: String? = nil, token: String? = nil, tokenTypeHint: String? = nil) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.token = token
        self.tokenTypeHint = tokenTypeHint
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case clientSecret = "client_secret"
        case token
        case tokenTypeHint = "token_type_hint"
    }
}
