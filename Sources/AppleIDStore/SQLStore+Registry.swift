import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore: RegistryStore {
    public func team(_ id: TeamID) async throws -> DeveloperTeam? {
        try await row(TeamRow.self, from: TeamRow.table, where: "id", equals: id.rawValue)?.team()
    }

    public func teams() async throws -> [DeveloperTeam] {
        // Team IDs are upper-case ASCII letters and digits: SQLite's and PostgreSQL's orders agree.
        try await db.select().column("*").from(TeamRow.table).orderBy("id").all(decoding: TeamRow.self).map { try $0.team() }
    }

    public func save(_ team: DeveloperTeam) async throws {
        try await upsert(TeamRow(team), into: TeamRow.table, key: ["id"])
    }

    public func appGroup(_ id: ClientID) async throws -> AppGroup? {
        try await row(AppGroupRow.self, from: AppGroupRow.table, where: "primary_app_id", equals: id.rawValue)?.group()
    }

    public func save(_ group: AppGroup) async throws {
        try await upsert(AppGroupRow(group), into: AppGroupRow.table, key: ["primary_app_id"])
    }

    public func client(_ id: ClientID) async throws -> RegisteredClient? {
        try await row(ClientRow.self, from: ClientRow.table, where: "id", equals: id.rawValue)?.client()
    }

    public func save(_ client: RegisteredClient) async throws {
        try await upsert(try ClientRow(client), into: ClientRow.table, key: ["id"])
    }

    public func developerKey(_ id: KeyID) async throws -> DeveloperKey? {
        try await row(DeveloperKeyRow.self, from: DeveloperKeyRow.table, where: "id", equals: id.rawValue)?.key()
    }

    public func save(_ key: DeveloperKey) async throws {
        try await upsert(DeveloperKeyRow(key), into: DeveloperKeyRow.table, key: ["id"])
    }
}

struct TeamRow: Codable, Sendable {
    static let table = "teams"
    var id: String
    var name: String
    var kind: String
    var country: String?

    init(_ team: DeveloperTeam) {
        id = team.id.rawValue
        name = team.name
        kind = team.kind.rawValue
        country = team.country
    }

    func team() throws -> DeveloperTeam {
        DeveloperTeam(id: TeamID(rawValue: id), name: name, kind: try .decoded(kind, table: Self.table, column: "kind"), country: country)
    }
}

struct AppGroupRow: Codable, Sendable {
    static let table = "app_groups"
    var primaryAppID: String
    var teamID: String
    var displayName: String
    var notificationEndpoint: String?

    enum CodingKeys: String, CodingKey {
        case primaryAppID = "primary_app_id"
        case teamID = "team_id"
        case displayName = "display_name"
        case notificationEndpoint = "notification_endpoint"
    }

    init(_ group: AppGroup) {
        primaryAppID = group.primaryAppID.rawValue
        teamID = group.teamID.rawValue
        displayName = group.displayName
        notificationEndpoint = group.notificationEndpoint
    }

    func group() -> AppGroup {
        AppGroup(
            primaryAppID: ClientID(rawValue: primaryAppID), teamID: TeamID(rawValue: teamID), displayName: displayName,
            notificationEndpoint: notificationEndpoint
        )
    }
}

struct ClientRow: Codable, Sendable {
    static let table = "clients"
    var id: String
    var kind: String
    var teamID: String
    var groupID: String
    /// JSON array of strings.
    var returnURLs: String
    /// JSON object (``ClientQuirks``).
    var quirks: String
    var description: String
    /// JSON array of strings.
    var domains: String
    /// JSON array of strings (an App ID's associated `webcredentials` domains).
    var webCredentialsDomains: String

    enum CodingKeys: String, CodingKey {
        case id, kind, quirks, description, domains
        case webCredentialsDomains = "webcredentials_domains"
        case teamID = "team_id"
        case groupID = "group_id"
        case returnURLs = "return_urls"
    }

    init(_ client: RegisteredClient) throws {
        id = client.id.rawValue
        kind = client.kind.rawValue
        teamID = client.teamID.rawValue
        groupID = client.groupID.rawValue
        returnURLs = try JSONColumn.encode(client.returnURLs)
        quirks = try JSONColumn.encode(client.quirks)
        description = client.description
        domains = try JSONColumn.encode(client.domains)
        webCredentialsDomains = try JSONColumn.encode(client.webCredentialsDomains)
    }

    func client() throws -> RegisteredClient {
        RegisteredClient(
            id: ClientID(rawValue: id),
            kind: try .decoded(kind, table: Self.table, column: "kind"),
            teamID: TeamID(rawValue: teamID),
            groupID: ClientID(rawValue: groupID),
            returnURLs: try JSONColumn.decode([String].self, from: returnURLs),
            quirks: try JSONColumn.decode(ClientQuirks.self, from: quirks),
            description: description,
            domains: try JSONColumn.decode([String].self, from: domains),
            webCredentialsDomains: try JSONColumn.decode([String].self, from: webCredentialsDomains)
        )
    }
}

struct DeveloperKeyRow: Codable, Sendable {
    static let table = "developer_keys"
    var id: String
    var teamID: String
    var primaryAppID: String
    var publicKeyPEM: String
    var revokedAt: Double?
    var name: String

    enum CodingKeys: String, CodingKey {
        case id, name
        case teamID = "team_id"
        case primaryAppID = "primary_app_id"
        case publicKeyPEM = "public_key_pem"
        case revokedAt = "revoked_at"
    }

    init(_ key: DeveloperKey) {
        id = key.id.rawValue
        teamID = key.teamID.rawValue
        primaryAppID = key.primaryAppID.rawValue
        publicKeyPEM = key.publicKeyPEM
        revokedAt = key.revokedAt?.sqlSeconds
        name = key.name
    }

    func key() -> DeveloperKey {
        DeveloperKey(
            id: KeyID(rawValue: id), teamID: TeamID(rawValue: teamID), primaryAppID: ClientID(rawValue: primaryAppID),
            publicKeyPEM: publicKeyPEM, revokedAt: revokedAt.map(Date.init(sqlSeconds:)), name: name
        )
    }
}
