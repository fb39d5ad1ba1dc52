/// The OpenID Connect discovery document in Apple's shape (spec §2), with this server's URLs.
public struct DiscoveryDocument: Codable, Sendable, Hashable {
    public var issuer: String
    public var authorizationEndpoint: String
    public var tokenEndpoint: String
    public var revocationEndpoint: String
    public var jwksURI: String
    public var responseTypesSupported: [String]
    public var responseModesSupported: [String]
    public var subjectTypesSupported: [String]
    public var idTokenSigningAlgValuesSupported: [String]
    public var scopesSupported: [String]
    public var tokenEndpointAuthMethodsSupported: [String]
    public var claimsSupported: [String]

    /// Apple's document, with every endpoint under `baseURL` and the given issuer.
    public init(issuer: String, baseURL: String) {
        self.issuer = issuer
        self.authorizationEndpoint = baseURL + "/auth/authorize"
        self.tokenEndpoint = baseURL + "/auth/token"
        self.revocationEndpoint = baseURL + "/auth/revoke"
        self.jwksURI = baseURL + "/auth/keys"
        self.responseTypesSupported = ["code"]
        self.responseModesSupported = ["query", "fragment", "form_post"]
        self.subjectTypesSupported = ["pairwise"]
        self.idTokenSigningAlgValuesSupported = ["RS256"]
        self.scopesSupported = ["openid", "email", "name"]
        self.tokenEndpointAuthMethodsSupported = ["client_secret_post"]
        self.claimsSupported = [
            "aud", "email", "email_verified", "exp", "iat", "is_private_email",
            "iss", "nonce", "nonce_supported", "real_user_status", "sub", "transfer_sub",
        ]
    }

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case jwksURI = "jwks_uri"
        case responseTypesSupported = "response_types_supported"
        case responseModesSupported = "response_modes_supported"
        case subjectTypesSupported = "subject_types_supported"
        case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
        case scopesSupported = "scopes_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case claimsSupported = "claims_supported"
    }
}

/// The JWKS of `/auth/keys` with Apple's field order `kty, kid, use, alg, n, e` (spec §7).
///
/// jwt-kit's `JWK` has no `use` member, hence this small wire type.
public struct PublishedKeySet: Codable, Sendable, Hashable {
    public struct Key: Codable, Sendable, Hashable {
        public var kty: String
        public var kid: SigningKeyID
        public var use: String
        public var alg: String
        public var n: String
        public var e: String

        public init(kid: SigningKeyID, modulus: String, exponent: String) {
            self.kty = "RSA"
            self.kid = kid
            self.use = "sig"
            self.alg = "RS256"
            self.n = modulus
            self.e = exponent
        }
    }

    public var keys: [Key]

    public init(keys: [Key]) { self.keys = keys }
}
