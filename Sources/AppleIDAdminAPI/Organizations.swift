import Foundation

/// `POST /admin/orgs`: an organization (what Apple School Manager and Apple Business Manager are).
public struct OrganizationOrder: Codable, Sendable, Equatable {
    public var name: String
    /// `school` (the default) or `business`.
    public var kind: String?
    public var verifiedDomains: [String]?
    /// `all-apps` (the default) or `specific-apps`.
    public var accessRule: String?
    public var allowedApps: [String]?

    public init(name: String, kind: String? = nil, verifiedDomains: [String]? = nil, accessRule: String? = nil, allowedApps: [String]? = nil) {
        self.name = name
        self.kind = kind
        self.verifiedDomains = verifiedDomains
        self.accessRule = accessRule
        self.allowedApps = allowedApps
    }

    enum CodingKeys: String, CodingKey {
        case name, kind
        case verifiedDomains = "verified_domains"
        case accessRule = "access_rule"
        case allowedApps = "allowed_apps"
    }
}

/// `POST /admin/orgs/{org}/allowed-apps`.
public struct AppOrder: Codable, Sendable, Equatable {
    public var appID: String
    public init(appID: String) { self.appID = appID }
    enum CodingKeys: String, CodingKey { case appID = "app_id" }
}

/// `PUT /admin/orgs/{org}/access-rule`: `all-apps` or `specific-apps`.
public struct RuleOrder: Codable, Sendable, Equatable {
    public var accessRule: String
    public init(accessRule: String) { self.accessRule = accessRule }
    enum CodingKeys: String, CodingKey { case accessRule = "access_rule" }
}

/// `POST /admin/orgs/{org}/users`: a Managed Apple ID.
public struct MemberOrder: Codable, Sendable, Equatable {
    public var username: String
    public var password: String
    public var firstName: String
    public var lastName: String
    /// The organization's e-mail address for the account (`""` or absent: none).
    public var email: String?
    public var twoFactorEnabled: Bool?

    public init(username: String, password: String, firstName: String, lastName: String, email: String? = nil, twoFactorEnabled: Bool? = nil) {
        self.username = username
        self.password = password
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.twoFactorEnabled = twoFactorEnabled
    }

    enum CodingKeys: String, CodingKey {
        case username, password, email
        case firstName = "first_name"
        case lastName = "last_name"
        case twoFactorEnabled = "two_factor_enabled"
    }
}

/// `PATCH /admin/orgs/{org}/users/{apple_id}`.
public struct MemberChange: Codable, Sendable, Equatable {
    /// `""` removes the organization e-mail.
    public var email: String?
    public var deactivated: Bool?

    public init(email: String? = nil, deactivated: Bool? = nil) {
        self.email = email
        self.deactivated = deactivated
    }
}

/// An organization as the admin API shows it.
public struct OrganizationView: Codable, Sendable, Equatable {
    /// The `org_id` claim's value.
    public var id: String
    public var kind: String
    public var name: String
    public var verifiedDomains: [String]
    public var accessRule: String
    public var allowedApps: [String]
    /// Where the organization's own sign-in checks passwords; absent: the server's own.
    public var federationURL: String?
    /// Only when one organization is shown.
    public var members: [MemberView]?

    public init(
        id: String, kind: String, name: String, verifiedDomains: [String], accessRule: String, allowedApps: [String], federationURL: String?,
        members: [MemberView]? = nil
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.verifiedDomains = verifiedDomains
        self.accessRule = accessRule
        self.allowedApps = allowedApps
        self.federationURL = federationURL
        self.members = members
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, name, members
        case verifiedDomains = "verified_domains"
        case accessRule = "access_rule"
        case allowedApps = "allowed_apps"
        case federationURL = "federation_url"
    }
}

/// `GET /admin/orgs`.
public struct OrganizationList: Codable, Sendable, Equatable {
    public var organizations: [OrganizationView]
    public init(organizations: [OrganizationView]) { self.organizations = organizations }
}

/// A Managed Apple ID as the admin API shows it: never the password hash or the TOTP secret.
public struct MemberView: Codable, Sendable, Equatable {
    public var username: String
    public var firstName: String
    public var lastName: String
    public var email: String?
    /// `active` or `deactivated`.
    public var state: String

    public init(username: String, firstName: String, lastName: String, email: String?, state: String) {
        self.username = username
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.state = state
    }

    enum CodingKeys: String, CodingKey {
        case username, email, state
        case firstName = "first_name"
        case lastName = "last_name"
    }
}
