import AppleIDProtocol
import Foundation

/// An organization of Apple School Manager or Apple Business Manager: its Managed Apple IDs sign in
/// with Apple "at Work & School" (spec §21).
public struct Organization: Codable, Sendable, Hashable, Identifiable {
    public enum Kind: String, Codable, Sendable, Hashable, CaseIterable {
        case business
        case school
    }

    /// Which apps the organization's accounts may sign in to (spec §21 item 2).
    public enum AccessRule: String, Codable, Sendable, Hashable, CaseIterable {
        /// Every app that offers Sign in with Apple.
        case allApps = "all-apps"
        /// Only the App IDs on ``Organization/allowedApps``.
        case specificApps = "specific-apps"
    }

    /// The `org_id` claim of its accounts' id_tokens.
    public var id: UUID
    public var kind: Kind
    public var name: String
    /// Domains the organization proved it owns (its accounts' usernames and e-mails live under them).
    public var verifiedDomains: [String]
    public var accessRule: AccessRule
    /// The allow list of ``AccessRule/specificApps``: primary App IDs (a Services ID signs in as part
    /// of its primary App ID's group). Kept, but not consulted, under ``AccessRule/allApps``.
    public var allowedApps: [ClientID]
    public var createdAt: Date
    /// Where its own identity provider checks its accounts' passwords (``ManagedSignInAuthenticator``);
    /// `nil`: the server's own password and two-factor, the default.
    public var federationURL: String?

    public init(
        id: UUID, kind: Kind, name: String, verifiedDomains: [String] = [], accessRule: AccessRule = .allApps,
        allowedApps: [ClientID] = [], createdAt: Date, federationURL: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.verifiedDomains = verifiedDomains
        self.accessRule = accessRule
        self.allowedApps = allowedApps
        self.createdAt = createdAt
        self.federationURL = federationURL
    }

    /// Whether the organization's accounts may sign in to the app group.
    public func allows(_ groupID: ClientID) -> Bool {
        switch accessRule {
        case .allApps: true
        case .specificApps: allowedApps.contains(groupID)
        }
    }

    /// The `org_id` claim: the UUID in lowercase, as Apple's examples write UUIDs in tokens.
    public var claimValue: String { id.uuidString.lowercased() }
}

/// An organization whose access rule has narrowed: when ``dueAt`` comes, every grant of its
/// accounts to an app it no longer allows is revoked (spec §21 item 9: Apple does it "within 24
/// hours"; ``ProviderConfiguration/appWithdrawalWindow`` here).
public struct PendingWithdrawal: Codable, Sendable, Hashable {
    public var organizationID: UUID
    public var dueAt: Date

    public init(organizationID: UUID, dueAt: Date) {
        self.organizationID = organizationID
        self.dueAt = dueAt
    }
}

/// What makes an Apple ID a Managed Apple ID: the organization it belongs to, and what the
/// organization set for it.
public struct ManagedMembership: Codable, Sendable, Hashable {
    public var organizationID: UUID
    /// The organization's e-mail address for the account; students often have none (spec §21 item 4).
    public var organizationEmail: String?
    /// Deactivated by the organization: the account cannot sign in (spec §21 item 10).
    public var isDeactivated: Bool

    public init(organizationID: UUID, organizationEmail: String? = nil, isDeactivated: Bool = false) {
        self.organizationID = organizationID
        self.organizationEmail = organizationEmail
        self.isDeactivated = isDeactivated
    }
}

extension AppleIDAccount {
    /// Neither deleted nor deactivated by its organization (spec §21 item 10).
    public var canSignIn: Bool { deletedAt == nil && managed?.isDeactivated != true }
}

extension OrganizationStore {
    /// Whether the account is a Managed Apple ID whose organization does not allow the app group
    /// (spec §21 item 2). A consumer Apple ID is never refused.
    func organizationRefuses(_ account: AppleIDAccount, groupID: ClientID) async throws -> Bool {
        guard let managed = account.managed else { return false }
        return try await organization(id: managed.organizationID)?.allows(groupID) != true
    }
}
