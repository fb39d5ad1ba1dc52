import AppleIDProtocol
import Foundation

/// One authorization of a user for a client: what its codes, access tokens and refresh tokens
/// were issued under. Revoking it invalidates every token issued under it.
public struct Grant: Codable, Sendable, Hashable, Identifiable {
    public var id: String
    public var accountID: String
    public var teamID: TeamID
    public var groupID: ClientID
    public var clientID: ClientID
    public var subject: Subject
    public var scopes: [Scope]
    public var email: String?
    public var isPrivateEmail: Bool
    public var realUserStatus: RealUserStatus
    /// When the user authenticated (`auth_time`).
    public var authTime: Date
    public var createdAt: Date
    public var revokedAt: Date?
    /// For a user migrated by an app transfer: the transfer identifier, sent as `transfer_sub` in
    /// id_tokens until the transfer's 60-day window ends (spec §17.4).
    public var transferSubject: Subject?
    public var transferWindowEndsAt: Date?
    /// The organization of a Managed Apple ID: its id_tokens carry `org_id` and an unverified e-mail.
    public var organizationID: UUID?

    public init(
        id: String, accountID: String, teamID: TeamID, groupID: ClientID, clientID: ClientID, subject: Subject,
        scopes: [Scope], email: String?, isPrivateEmail: Bool, realUserStatus: RealUserStatus, authTime: Date,
        createdAt: Date, revokedAt: Date? = nil, transferSubject: Subject? = nil, transferWindowEndsAt: Date? = nil,
        organizationID: UUID? = nil
    ) {
        self.id = id
        self.accountID = accountID
        self.teamID = teamID
        self.groupID = groupID
        self.clientID = clientID
        self.subject = subject
        self.scopes = scopes
        self.email = email
        self.isPrivateEmail = isPrivateEmail
        self.realUserStatus = realUserStatus
        self.authTime = authTime
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.transferSubject = transferSubject
        self.transferWindowEndsAt = transferWindowEndsAt
        self.organizationID = organizationID
    }
}

/// A stored authorization code: only its hash is kept. Bound to the client, the redirect URI,
/// the PKCE challenge and the nonce of the request it answered.
public struct AuthorizationCodeRecord: Codable, Sendable, Hashable {
    public var codeHash: String
    public var grantID: String
    public var clientID: ClientID
    /// `nil` for native-style codes, which are redeemed without `redirect_uri`.
    public var redirectURI: String?
    public var codeChallenge: String?
    public var nonce: String?
    public var expiresAt: Date
    public var consumedAt: Date?

    public init(
        codeHash: String, grantID: String, clientID: ClientID, redirectURI: String?, codeChallenge: String?,
        nonce: String?, expiresAt: Date, consumedAt: Date? = nil
    ) {
        self.codeHash = codeHash
        self.grantID = grantID
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.codeChallenge = codeChallenge
        self.nonce = nonce
        self.expiresAt = expiresAt
        self.consumedAt = consumedAt
    }
}

/// A stored access or refresh token: only the hash of the token is kept.
public struct TokenRecord: Codable, Sendable, Hashable {
    public enum Kind: String, Codable, Sendable, Hashable {
        case access
        case refresh
    }

    public var tokenHash: String
    public var kind: Kind
    public var grantID: String
    public var clientID: ClientID
    public var createdAt: Date
    /// `nil` for refresh tokens, which live until revoked (spec §4.2).
    public var expiresAt: Date?

    public init(tokenHash: String, kind: Kind, grantID: String, clientID: ClientID, createdAt: Date, expiresAt: Date?) {
        self.tokenHash = tokenHash
        self.kind = kind
        self.grantID = grantID
        self.clientID = clientID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// An access or refresh token made before the grant it belongs to is read: a code exchange hands its
/// tokens to ``GrantStore/redeemCode(hash:binding:at:validAt:issuing:)``, which files them under the
/// code's grant (and that grant's client) in the step that consumes the code.
public struct NewToken: Sendable, Hashable {
    public var tokenHash: String
    public var kind: TokenRecord.Kind
    public var createdAt: Date
    /// `nil` for refresh tokens.
    public var expiresAt: Date?

    public init(tokenHash: String, kind: TokenRecord.Kind, createdAt: Date, expiresAt: Date?) {
        self.tokenHash = tokenHash
        self.kind = kind
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// This token's record under `grant`, issued to the grant's client.
    public func record(under grant: Grant) -> TokenRecord {
        TokenRecord(tokenHash: tokenHash, kind: kind, grantID: grant.id, clientID: grant.clientID, createdAt: createdAt, expiresAt: expiresAt)
    }
}
