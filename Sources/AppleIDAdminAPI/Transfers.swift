import Foundation

/// `POST /admin/teams`: a developer team (a Team ID is made up unless given). Answered as a ``TeamView``.
public struct TeamOrder: Codable, Sendable, Equatable {
    /// 10 upper-case letters and digits.
    public var teamID: String?
    public var name: String?
    /// `individual` or `organization` (the default).
    public var kind: String?
    /// Where the team is based: an ISO 3166-1 alpha-2 code (`KR`).
    public var country: String?

    public init(teamID: String? = nil, name: String? = nil, kind: String? = nil, country: String? = nil) {
        self.teamID = teamID
        self.name = name
        self.kind = kind
        self.country = country
    }

    enum CodingKeys: String, CodingKey {
        case name, kind, country
        case teamID = "team_id"
    }
}

/// `POST /admin/teams/{team}/keys`: a Sign in with Apple key for a primary App ID.
public struct KeyOrder: Codable, Sendable, Equatable {
    public var primaryAppID: String
    public init(primaryAppID: String) { self.primaryAppID = primaryAppID }
    enum CodingKeys: String, CodingKey { case primaryAppID = "primary_app_id" }
}

/// The new key: the private half is shown this once, like the console's `.p8` download.
public struct NewKey: Codable, Sendable, Equatable {
    public var keyID: String
    public var teamID: String
    public var primaryAppID: String
    public var privateKeyPEM: String

    public init(keyID: String, teamID: String, primaryAppID: String, privateKeyPEM: String) {
        self.keyID = keyID
        self.teamID = teamID
        self.primaryAppID = primaryAppID
        self.privateKeyPEM = privateKeyPEM
    }

    enum CodingKeys: String, CodingKey {
        case keyID = "key_id"
        case teamID = "team_id"
        case primaryAppID = "primary_app_id"
        case privateKeyPEM = "private_key_pem"
    }
}

/// `POST /admin/transfers`: move an app group to another team (spec §17.4).
public struct TransferOrder: Codable, Sendable, Equatable {
    public var groupID: String
    public var recipientTeamID: String

    public init(groupID: String, recipientTeamID: String) {
        self.groupID = groupID
        self.recipientTeamID = recipientTeamID
    }

    enum CodingKeys: String, CodingKey {
        case groupID = "group_id"
        case recipientTeamID = "recipient_team_id"
    }
}

/// An app transfer and its 60 days of `transfer_sub`.
public struct TransferView: Codable, Sendable, Equatable {
    public var id: String
    public var groupID: String
    public var fromTeamID: String
    public var toTeamID: String
    public var transferredAt: Date
    public var windowEndsAt: Date

    public init(id: String, groupID: String, fromTeamID: String, toTeamID: String, transferredAt: Date, windowEndsAt: Date) {
        self.id = id
        self.groupID = groupID
        self.fromTeamID = fromTeamID
        self.toTeamID = toTeamID
        self.transferredAt = transferredAt
        self.windowEndsAt = windowEndsAt
    }

    enum CodingKeys: String, CodingKey {
        case id
        case groupID = "group_id"
        case fromTeamID = "from_team_id"
        case toTeamID = "to_team_id"
        case transferredAt = "transferred_at"
        case windowEndsAt = "window_ends_at"
    }
}

/// `GET /admin/transfers?group_id=…`.
public struct TransferList: Codable, Sendable, Equatable {
    public var transfers: [TransferView]
    public init(transfers: [TransferView]) { self.transfers = transfers }
}
