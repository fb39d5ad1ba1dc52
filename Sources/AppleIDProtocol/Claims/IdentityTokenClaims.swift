import JWTKit

/// The claims of an Apple identity token (spec §9.1), in the order Apple's tokens carry them.
///
/// Times are whole seconds since 1970, as Apple writes them. Unlike jwt-kit's
/// `AppleIdentityToken`, the issuer is not fixed and `auth_time`, `at_hash`, `c_hash` and
/// `transfer_sub` are kept. Checking the claims (issuer, audience, expiry, nonce) needs a clock and
/// the expected values, so it is the verifier's job, not ``verify(using:)``'s.
public struct IdentityTokenClaims: JWTPayload, Hashable {
    public var issuer: String
    public var audience: String
    public var expiresAt: Int
    public var issuedAt: Int
    public var subject: Subject
    public var nonce: String?
    public var codeHash: String?
    public var accessTokenHash: String?
    public var email: String?
    public var emailVerified: BooleanClaim?
    public var isPrivateEmail: BooleanClaim?
    public var authTime: Int?
    public var nonceSupported: Bool?
    public var realUserStatus: Int?
    public var transferSubject: Subject?
    /// The organization of a Managed Apple ID (Sign in with Apple at Work & School): a UUID. Such
    /// tokens may have no `email`, and `email_verified` false (spec §21).
    public var organizationID: String?

    public init(
        issuer: String, audience: String, expiresAt: Int, issuedAt: Int, subject: Subject,
        nonce: String? = nil, codeHash: String? = nil, accessTokenHash: String? = nil, email: String? = nil,
        emailVerified: BooleanClaim? = nil, isPrivateEmail: BooleanClaim? = nil, authTime: Int? = nil,
        nonceSupported: Bool? = nil, realUserStatus: Int? = nil, transferSubject: Subject? = nil,
        organizationID: String? = nil
    ) {
        self.issuer = issuer
        self.audience = audience
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.subject = subject
        self.nonce = nonce
        self.codeHash = codeHash
        self.accessTokenHash = accessTokenHash
        self.email = email
        self.emailVerified = emailVerified
        self.isPrivateEmail = isPrivateEmail
        self.authTime = authTime
        self.nonceSupported = nonceSupported
        self.realUserStatus = realUserStatus
        self.transferSubject = transferSubject
        self.organizationID = organizationID
    }

    enum CodingKeys: String, CodingKey {
        case issuer = "iss"
        case audience = "aud"
        case expiresAt = "exp"
        case issuedAt = "iat"
        case subject = "sub"
        case nonce
        case codeHash = "c_hash"
        case accessTokenHash = "at_hash"
        case email
        case emailVerified = "email_verified"
        case isPrivateEmail = "is_private_email"
        case authTime = "auth_time"
        case nonceSupported = "nonce_supported"
        case realUserStatus = "real_user_status"
        case transferSubject = "transfer_sub"
        case organizationID = "org_id"
    }

    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The user's real-person indicator (`real_user_status`, spec §9.1).
public enum RealUserStatus: Int, Codable, Sendable, Hashable, CaseIterable {
    case unsupported = 0
    case unknown = 1
    case likelyReal = 2
}
