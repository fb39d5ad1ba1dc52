import Foundation

/// What the first start of `siwa serve` creates for a newcomer, prints, and writes to `demo.json`
/// in its data directory: the one type for that file, written by the server and read by `siwa`,
/// Juice and scripts. It lives in the wire vocabulary so that all of them, and the public kit's
/// users, can import it without a server module.
public struct DemoFacts: Codable, Sendable, Hashable {
    public struct User: Codable, Sendable, Hashable {
        public var appleID: String
        public var password: String
        public var firstName: String
        public var lastName: String
        public var email: String
        public var realUserStatus: Int
        /// The base32 TOTP secret, for an authenticator app when development mode does not show the
        /// code (demo.json is readable by its owner only).
        public var totpSecret: String?

        public init(
            appleID: String, password: String, firstName: String, lastName: String, email: String, realUserStatus: Int,
            totpSecret: String? = nil
        ) {
            self.appleID = appleID
            self.password = password
            self.firstName = firstName
            self.lastName = lastName
            self.email = email
            self.realUserStatus = realUserStatus
            self.totpSecret = totpSecret
        }

        enum CodingKeys: String, CodingKey {
            case appleID = "apple_id"
            case password
            case firstName = "first_name"
            case lastName = "last_name"
            case email
            case realUserStatus = "real_user_status"
            case totpSecret = "totp_secret"
        }
    }

    public var server: String
    public var issuer: String
    public var teamID: TeamID
    public var keyID: KeyID
    public var keyFile: String
    public var bundleID: ClientID
    public var servicesID: ClientID
    public var returnURLs: [String]
    public var users: [User]
    public var adminToken: String
    /// The demo developer who signs in to the console (`nil` in a `demo.json` written before it).
    public var developer: Developer?
    /// The demo school and its Managed Apple IDs (`nil` in a `demo.json` written before it). Kept
    /// apart from ``users``: they sign in with a username and their tokens differ (spec §21).
    public var organization: Organization?

    /// An organization of Apple School Manager or Apple Business Manager.
    public struct Organization: Codable, Sendable, Hashable {
        /// The `org_id` of its accounts' id_tokens.
        public var id: String
        public var name: String
        public var kind: String
        public var members: [ManagedUser]

        public init(id: String, name: String, kind: String, members: [ManagedUser]) {
            self.id = id
            self.name = name
            self.kind = kind
            self.members = members
        }
    }

    /// A Managed Apple ID: a username that may be no mailbox, an optional organization e-mail.
    public struct ManagedUser: Codable, Sendable, Hashable {
        public var username: String
        public var password: String
        public var firstName: String
        public var lastName: String
        public var email: String?

        public init(username: String, password: String, firstName: String, lastName: String, email: String?) {
            self.username = username
            self.password = password
            self.firstName = firstName
            self.lastName = lastName
            self.email = email
        }

        enum CodingKeys: String, CodingKey {
            case username, password, email
            case firstName = "first_name"
            case lastName = "last_name"
        }
    }

    /// A developer account of the demo team, for `/console`.
    public struct Developer: Codable, Sendable, Hashable {
        public var email: String
        public var password: String

        public init(email: String, password: String) {
            self.email = email
            self.password = password
        }
    }

    public init(
        server: String, issuer: String, teamID: TeamID, keyID: KeyID, keyFile: String, bundleID: ClientID, servicesID: ClientID,
        returnURLs: [String], users: [User], adminToken: String
    ) {
        self.server = server
        self.issuer = issuer
        self.teamID = teamID
        self.keyID = keyID
        self.keyFile = keyFile
        self.bundleID = bundleID
        self.servicesID = servicesID
        self.returnURLs = returnURLs
        self.users = users
        self.adminToken = adminToken
    }

    enum CodingKeys: String, CodingKey {
        case server, issuer
        case teamID = "team_id"
        case keyID = "key_id"
        case keyFile = "key_file"
        case bundleID = "bundle_id"
        case servicesID = "services_id"
        case returnURLs = "return_urls"
        case users
        case adminToken = "admin_token"
        case developer, organization
    }
}

extension DemoFacts {
    /// The sample app's callback when it runs on its default port (`swift run juice`): a Return URL of
    /// the demo Services ID from the first start.
    public static let juiceReturnURL = "http://127.0.0.1:8081/auth/apple/callback"
    /// The sender of Juice's order confirmations (`juice --mail-from`'s default), an e-mail source of
    /// the demo team, so that the relay takes Juice's mail out of the box.
    public static let juiceMailSender = "orders@juice.example.com"
}
