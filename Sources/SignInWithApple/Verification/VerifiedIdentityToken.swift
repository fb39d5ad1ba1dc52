import AppleIDProtocol
import Foundation

/// The claims of an identity token that passed every check, typed.
public struct VerifiedIdentityToken: Sendable, Hashable {
    /// The team-scoped user identifier: the key of the user's account in your app.
    public var subject: String
    public var issuer: String
    public var audience: String
    public var issuedAt: Date
    public var expiresAt: Date
    /// Absent when the user shared none, and for many Managed Apple IDs (students often have no
    /// address): never make it your account key; ``subject`` is.
    public var email: String?
    /// `email_verified`, whether Apple wrote it as a boolean or as the string `"true"`/`"false"`.
    /// `false` for a Managed Apple ID (the organization's address, which Apple did not verify).
    public var emailVerified: Bool?
    /// `org_id`: the organization of a Managed Apple ID (Sign in with Apple at Work & School); `nil`
    /// for a personal Apple ID.
    public var organizationID: String?
    /// Whether ``email`` is a Hide My Email relay address.
    public var isPrivateEmail: Bool
    public var realUserStatus: RealUserStatus?
    /// The user's identifier at the previous team, during the 60 days after an app transfer.
    public var transferSubject: String?
    public var authenticatedAt: Date?
    public var nonceSupported: Bool?
    /// `nbf`, when the token has one (Apple's have none).
    public var notBefore: Date?
    /// The `kid` of the key that signed the token.
    public var keyID: String
    /// Every claim as decoded.
    public var claims: IdentityTokenClaims

    init(claims: IdentityTokenClaims, keyID: String, notBefore: Int? = nil) {
        self.subject = claims.subject.rawValue
        self.issuer = claims.issuer
        self.audience = claims.audience
        self.issuedAt = Date(timeIntervalSince1970: TimeInterval(claims.issuedAt))
        self.expiresAt = Date(timeIntervalSince1970: TimeInterval(claims.expiresAt))
        self.email = claims.email
        self.emailVerified = claims.emailVerified?.value
        self.organizationID = claims.organizationID
        self.isPrivateEmail = claims.isPrivateEmail?.value ?? false
        self.realUserStatus = claims.realUserStatus.flatMap(RealUserStatus.init(rawValue:))
        self.transferSubject = claims.transferSubject?.rawValue
        self.authenticatedAt = claims.authTime.map { Date(timeIntervalSince1970: TimeInterval($0)) }
        self.nonceSupported = claims.nonceSupported
        self.notBefore = notBefore.map { Date(timeIntervalSince1970: TimeInterval($0)) }
        self.keyID = keyID
        self.claims = claims
    }
}
