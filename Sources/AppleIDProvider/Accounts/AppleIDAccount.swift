import AppleIDProtocol
import Foundation

/// An Apple ID that can sign in: its login, password hash, name, e-mail, second factor.
public struct AppleIDAccount: Codable, Sendable, Hashable, Identifiable {
    public var id: String
    /// The login (an e-mail address), always lowercased.
    public var appleID: String {
        didSet { appleID = appleID.lowercased() }
    }
    /// bcrypt hash of the password.
    public var passwordHash: String
    public var firstName: String
    public var lastName: String
    /// The verified address mail is forwarded to and shared when the user does not hide it. For a
    /// Managed Apple ID: the organization's address, or the username when it has none (never shared:
    /// its apps get ``ManagedMembership/organizationEmail``).
    public var email: String
    /// Further verified addresses of the Apple ID; the consent page lets the user share one of them
    /// instead of the primary one.
    public var additionalEmails: [String]
    public var realUserStatus: RealUserStatus
    /// Base32 TOTP secret of the two-factor step.
    public var totpSecret: String
    /// Whether sign-in asks for the verification code after the password (on by default, as on
    /// Apple's servers; off for Apple IDs that scripts drive through the pages).
    public var twoFactorEnabled: Bool
    public var createdAt: Date
    public var deletedAt: Date?
    /// The organization of a Managed Apple ID; `nil` for a consumer Apple ID.
    public var managed: ManagedMembership?

    public init(
        id: String, appleID: String, passwordHash: String, firstName: String, lastName: String, email: String,
        realUserStatus: RealUserStatus, totpSecret: String, twoFactorEnabled: Bool = true, createdAt: Date, deletedAt: Date? = nil,
        additionalEmails: [String] = [], managed: ManagedMembership? = nil
    ) {
        self.id = id
        self.appleID = appleID.lowercased()
        self.passwordHash = passwordHash
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.additionalEmails = additionalEmails
        self.realUserStatus = realUserStatus
        self.totpSecret = totpSecret
        self.twoFactorEnabled = twoFactorEnabled
        self.createdAt = createdAt
        self.deletedAt = deletedAt
        self.managed = managed
    }
}

extension AppleIDAccount {
    /// Every address the user may share: the primary one first.
    public var emails: [String] { [email] + additionalEmails.filter { $0 != email } }
}

/// The team-scoped face of an account: its `sub` and Hide My Email address for one team.
public struct TeamIdentity: Codable, Sendable, Hashable {
    public var accountID: String
    public var teamID: TeamID
    public var subject: Subject
    /// The relay address for this team, created the first time the user hides the e-mail.
    public var relayAddress: String?
    public var relayForwardingEnabled: Bool

    public init(accountID: String, teamID: TeamID, subject: Subject, relayAddress: String? = nil, relayForwardingEnabled: Bool = true) {
        self.accountID = accountID
        self.teamID = teamID
        self.subject = subject
        self.relayAddress = relayAddress
        self.relayForwardingEnabled = relayForwardingEnabled
    }
}

/// A user's consent for an app group: what was shared on the first authorization (spec §17.2).
/// Its absence means the next authorization is a first authorization.
public struct Consent: Codable, Sendable, Hashable {
    public var accountID: String
    public var groupID: ClientID
    public var grantedAt: Date
    public var scopes: [Scope]
    /// The address given to the group: the real one, or the team's relay address.
    public var email: String?
    public var isPrivateEmail: Bool

    public init(accountID: String, groupID: ClientID, grantedAt: Date, scopes: [Scope], email: String?, isPrivateEmail: Bool) {
        self.accountID = accountID
        self.groupID = groupID
        self.grantedAt = grantedAt
        self.scopes = scopes
        self.email = email
        self.isPrivateEmail = isPrivateEmail
    }
}
