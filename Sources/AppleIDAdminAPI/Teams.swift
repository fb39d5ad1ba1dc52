import Foundation

/// A developer team as the admin API lists it.
public struct TeamView: Codable, Sendable, Equatable {
    public var teamID: String
    public var name: String
    /// `individual` or `organization`.
    public var kind: String

    public init(teamID: String, name: String, kind: String) {
        self.teamID = teamID
        self.name = name
        self.kind = kind
    }

    enum CodingKeys: String, CodingKey {
        case name, kind
        case teamID = "team_id"
    }
}

/// `GET /admin/teams`.
public struct TeamList: Codable, Sendable, Equatable {
    public var teams: [TeamView]
    public init(teams: [TeamView]) { self.teams = teams }
}

/// `POST /admin/teams/{team}/apps`: an App ID with Sign in with Apple.
public struct AppIDOrder: Codable, Sendable, Equatable {
    public var bundleID: String
    public var description: String?
    /// A primary App ID of the team to group this one with (absent: this App ID is primary).
    public var groupedWith: String?

    public init(bundleID: String, description: String? = nil, groupedWith: String? = nil) {
        self.bundleID = bundleID
        self.description = description
        self.groupedWith = groupedWith
    }

    enum CodingKeys: String, CodingKey {
        case description
        case bundleID = "bundle_id"
        case groupedWith = "grouped_with"
    }
}
