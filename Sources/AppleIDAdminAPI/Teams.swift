import Foundation

/// A developer team as the admin API lists it.
public struct TeamView: Codable, Sendable, Equatable {
    public var teamID: String
    public var name: String
    /// `individual` or `organization`.
    public var kind: String
    /// Where the team is based (ISO 3166-1 alpha-2), if set.
    public var country: String?

    public init(teamID: String, name: String, kind: String, country: String? = nil) {
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

/// `PUT /admin/teams/{team}/country`: where the team is based; null or blank clears it.
public struct TeamCountryOrder: Codable, Sendable, Equatable {
    public var country: String?
    public init(country: String?) { self.country = country }
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
