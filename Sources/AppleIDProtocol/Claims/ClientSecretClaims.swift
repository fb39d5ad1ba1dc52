import JWTKit

/// The claims of the ES256 client secret a relying party sends to `/auth/token` (spec §5).
public struct ClientSecretClaims: JWTPayload, Hashable {
    /// The Team ID.
    public var issuer: String
    public var issuedAt: Int
    public var expiresAt: Int
    /// `https://appleid.apple.com` for Apple; this server's issuer for the emulator.
    public var audience: String
    /// The `client_id` the secret is used with.
    public var subject: String

    /// Apple's maximum lifetime of a client secret: 15,777,000 seconds (six months).
    public static let maximumLifetime = 15_777_000
    /// `iat` and `exp` values that can be real times: seconds from 1970 to the end of year 9999.
    /// Checked before any arithmetic on them.
    public static let plausibleTimes: ClosedRange<Int> = 0...253_402_300_799

    public init(issuer: String, issuedAt: Int, expiresAt: Int, audience: String, subject: String) {
        self.issuer = issuer
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.audience = audience
        self.subject = subject
    }

    enum CodingKeys: String, CodingKey {
        case issuer = "iss"
        case issuedAt = "iat"
        case expiresAt = "exp"
        case audience = "aud"
        case subject = "sub"
    }

    /// The rules are checked by the identity provider's client authenticator with its clock.
    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}
