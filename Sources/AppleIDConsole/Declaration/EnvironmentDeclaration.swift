import AppleIDProtocol
import AppleIDProvider
import Foundation

/// A whole Apple setup described as data: the model of `siwa serve --config siwa.yaml` and of
/// `siwa config export`. Keys are the file's (snake_case); `server:` belongs to the server's own
/// settings and is not part of this model. Teams are named in the file and referred to by name;
/// identifiers the file does not pin (Team ID, Key ID, `sub`) are derived from ``seed``.
public struct EnvironmentDeclaration: Codable, Sendable, Hashable {
    /// Derives the identities the file does not pin (``DeclaredIdentities``); the same seed and names
    /// give the same Team IDs, Key IDs, `sub`s and TOTP secrets on every fresh start.
    public var seed: String?
    public var teams: [Team]
    public var appIDs: [AppID]
    public var servicesIDs: [ServicesID]
    public var keys: [Key]
    public var appleIDs: [AppleID]
    public var developers: [Developer]
    public var organizations: [Organization]

    public init(
        seed: String? = nil, teams: [Team] = [], appIDs: [AppID] = [], servicesIDs: [ServicesID] = [], keys: [Key] = [],
        appleIDs: [AppleID] = [], developers: [Developer] = [], organizations: [Organization] = []
    ) {
        self.seed = seed
        self.teams = teams
        self.appIDs = appIDs
        self.servicesIDs = servicesIDs
        self.keys = keys
        self.appleIDs = appleIDs
        self.developers = developers
        self.organizations = organizations
    }

    /// A developer team (spec §12): individual or organization, with its relay e-mail sources.
    public struct Team: Codable, Sendable, Hashable {
        public var name: String
        public var teamID: String?
        public var kind: TeamKind?
        public var emailSources: [String]?
        /// Where the team is based: an ISO 3166-1 alpha-2 code (``DeveloperTeam/country``).
        public var country: String?

        public init(name: String, teamID: String? = nil, kind: TeamKind? = nil, emailSources: [String]? = nil, country: String? = nil) {
            self.name = name
            self.teamID = teamID
            self.kind = kind
            self.emailSources = emailSources
            self.country = country
        }

        enum CodingKeys: String, CodingKey {
            case name, kind, country
            case teamID = "team_id"
            case emailSources = "email_sources"
        }
    }

    /// An App ID with Sign in with Apple: primary (with its notification endpoint), or grouped.
    public struct AppID: Codable, Sendable, Hashable {
        public var bundleID: String
        /// The team's name; may be left out when the file declares one team.
        public var team: String?
        public var description: String
        public var groupedWith: String?
        public var notificationEndpoint: String?
        /// Switches to documented variants of Apple's traffic; left out, current traffic.
        public var quirks: QuirkChanges?

        public init(
            bundleID: String, team: String? = nil, description: String, groupedWith: String? = nil, notificationEndpoint: String? = nil,
            quirks: QuirkChanges? = nil
        ) {
            self.bundleID = bundleID
            self.team = team
            self.description = description
            self.groupedWith = groupedWith
            self.notificationEndpoint = notificationEndpoint
            self.quirks = quirks
        }

        enum CodingKeys: String, CodingKey {
            case team, description, quirks
            case bundleID = "bundle_id"
            case groupedWith = "grouped_with"
            case notificationEndpoint = "notification_endpoint"
        }
    }

    /// A Services ID (the web `client_id`) with its domains and Return URLs.
    public struct ServicesID: Codable, Sendable, Hashable {
        public var identifier: String
        public var team: String?
        public var description: String
        public var primaryAppID: String
        public var domains: [String]?
        public var returnURLs: [String]
        /// Switches to documented variants of Apple's traffic; left out, current traffic.
        public var quirks: QuirkChanges?

        public init(
            identifier: String, team: String? = nil, description: String, primaryAppID: String, domains: [String]? = nil, returnURLs: [String],
            quirks: QuirkChanges? = nil
        ) {
            self.identifier = identifier
            self.team = team
            self.description = description
            self.primaryAppID = primaryAppID
            self.domains = domains
            self.returnURLs = returnURLs
            self.quirks = quirks
        }

        enum CodingKeys: String, CodingKey {
            case identifier, team, description, domains, quirks
            case primaryAppID = "primary_app_id"
            case returnURLs = "return_urls"
        }
    }

    /// A Sign in with Apple key: a provided `.p8` file, or one generated once (the server keeps it).
    public struct Key: Codable, Sendable, Hashable {
        public var name: String
        public var team: String?
        public var primaryAppID: String
        public var keyID: String?
        /// The `.p8` file's path, read by the composition root into ``privateKeyPEM``.
        public var p8: String?
        /// The provided private key (PEM); never written to a file by the engine, never exported.
        public var privateKeyPEM: String?

        public init(name: String, team: String? = nil, primaryAppID: String, keyID: String? = nil, p8: String? = nil) {
            self.name = name
            self.team = team
            self.primaryAppID = primaryAppID
            self.keyID = keyID
            self.p8 = p8
        }

        enum CodingKeys: String, CodingKey {
            case name, team, p8
            case primaryAppID = "primary_app_id"
            case keyID = "key_id"
        }
    }

    /// An Apple ID. A left-out password or TOTP secret is derived from the seed: set them for anything
    /// reachable by others.
    public struct AppleID: Codable, Sendable, Hashable {
        public var appleID: String
        public var password: String?
        public var firstName: String
        public var lastName: String
        public var email: String?
        public var realUserStatus: RealUserStatus?
        public var twoFactor: Bool?
        /// The stored secret (20 characters of A–Z and 2–7); `demo.json` shows the authenticator form.
        public var totpSecret: String?
        /// The `sub` in the first team of the file; the other teams' are derived.
        public var sub: String?

        public init(
            appleID: String, password: String? = nil, firstName: String, lastName: String, email: String? = nil,
            realUserStatus: RealUserStatus? = nil, twoFactor: Bool? = nil, totpSecret: String? = nil, sub: String? = nil
        ) {
            self.appleID = appleID
            self.password = password
            self.firstName = firstName
            self.lastName = lastName
            self.email = email
            self.realUserStatus = realUserStatus
            self.twoFactor = twoFactor
            self.totpSecret = totpSecret
            self.sub = sub
        }

        enum CodingKeys: String, CodingKey {
            case password, email, sub
            case appleID = "apple_id"
            case firstName = "first_name"
            case lastName = "last_name"
            case realUserStatus = "real_user_status"
            case twoFactor = "two_factor"
            case totpSecret = "totp_secret"
        }
    }

    /// A developer of the console, a member of the named teams (all of the file's when left out).
    public struct Developer: Codable, Sendable, Hashable {
        public var email: String
        public var name: String
        public var password: String?
        public var teams: [String]?

        public init(email: String, name: String, password: String? = nil, teams: [String]? = nil) {
            self.email = email
            self.name = name
            self.password = password
            self.teams = teams
        }
    }

    enum CodingKeys: String, CodingKey {
        case seed, teams, keys, developers, organizations
        case appIDs = "app_ids"
        case servicesIDs = "services_ids"
        case appleIDs = "apple_ids"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        seed = try container.decodeIfPresent(String.self, forKey: .seed)
        teams = try container.decodeIfPresent([Team].self, forKey: .teams) ?? []
        appIDs = try container.decodeIfPresent([AppID].self, forKey: .appIDs) ?? []
        servicesIDs = try container.decodeIfPresent([ServicesID].self, forKey: .servicesIDs) ?? []
        keys = try container.decodeIfPresent([Key].self, forKey: .keys) ?? []
        appleIDs = try container.decodeIfPresent([AppleID].self, forKey: .appleIDs) ?? []
        developers = try container.decodeIfPresent([Developer].self, forKey: .developers) ?? []
        organizations = try container.decodeIfPresent([Organization].self, forKey: .organizations) ?? []
    }
}
