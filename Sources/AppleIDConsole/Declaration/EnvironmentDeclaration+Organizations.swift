import AppleIDProtocol
import AppleIDProvider
import Foundation

/// The engine's organization vocabularies, by names that ``EnvironmentDeclaration/Organization`` does not hide.
public typealias OrganizationKind = Organization.Kind
public typealias OrganizationAccessRule = Organization.AccessRule

extension EnvironmentDeclaration {
    /// An organization of Apple School Manager or Apple Business Manager with its Managed Apple IDs
    /// (spec §21), as the admin API's `/admin/orgs` makes them.
    public struct Organization: Codable, Sendable, Hashable {
        public var name: String
        /// The `org_id` claim of its accounts' id_tokens (a UUID); derived from the seed when left out.
        public var orgID: String?
        /// `school` when left out, as in the admin API.
        public var kind: OrganizationKind?
        /// The domains its accounts' usernames and e-mails live under (or subdomains of them).
        public var verifiedDomains: [String]?
        /// `all-apps` when left out.
        public var accessRule: OrganizationAccessRule?
        /// Primary App IDs its accounts may sign in to under `specific-apps`.
        public var allowedApps: [String]?
        /// Where its own identity provider checks its accounts' passwords; left out: the server's own.
        public var federationURL: String?
        public var accounts: [ManagedAccount]?

        public init(
            name: String, orgID: String? = nil, kind: OrganizationKind? = nil, verifiedDomains: [String]? = nil,
            accessRule: OrganizationAccessRule? = nil, allowedApps: [String]? = nil, federationURL: String? = nil,
            accounts: [ManagedAccount]? = nil
        ) {
            self.name = name
            self.orgID = orgID
            self.kind = kind
            self.verifiedDomains = verifiedDomains
            self.accessRule = accessRule
            self.allowedApps = allowedApps
            self.federationURL = federationURL
            self.accounts = accounts
        }

        enum CodingKeys: String, CodingKey {
            case name, kind, accounts
            case orgID = "org_id"
            case verifiedDomains = "verified_domains"
            case accessRule = "access_rule"
            case allowedApps = "allowed_apps"
            case federationURL = "federation_url"
        }
    }

    /// A Managed Apple ID. Like an Apple ID's, a left-out password, TOTP secret or `sub` is derived
    /// from the seed.
    public struct ManagedAccount: Codable, Sendable, Hashable {
        /// The login, under the organization's verified domains (`t.teacher@appleid.school.example.edu`).
        public var username: String
        public var password: String?
        public var firstName: String
        public var lastName: String
        /// The organization e-mail; students often have none (spec §21 item 4).
        public var email: String?
        public var twoFactor: Bool?
        /// Deactivated by the organization: it cannot sign in.
        public var deactivated: Bool?
        public var totpSecret: String?
        /// The `sub` in the first team of the file; the other teams' are derived.
        public var sub: String?

        public init(
            username: String, password: String? = nil, firstName: String, lastName: String, email: String? = nil, twoFactor: Bool? = nil,
            deactivated: Bool? = nil, totpSecret: String? = nil, sub: String? = nil
        ) {
            self.username = username
            self.password = password
            self.firstName = firstName
            self.lastName = lastName
            self.email = email
            self.twoFactor = twoFactor
            self.deactivated = deactivated
            self.totpSecret = totpSecret
            self.sub = sub
        }

        enum CodingKeys: String, CodingKey {
            case username, password, email, deactivated, sub
            case firstName = "first_name"
            case lastName = "last_name"
            case twoFactor = "two_factor"
            case totpSecret = "totp_secret"
        }
    }
}
