import AppleIDConsole
import AppleIDEmailSources
import AppleIDProtocol
import AppleIDProvider
import Foundation

struct PendingDownloadRow: Codable, Sendable {
    static let table = "developer_key_downloads"
    var keyID: String
    var privateKeyPEM: String

    enum CodingKeys: String, CodingKey {
        case keyID = "key_id"
        case privateKeyPEM = "private_key_pem"
    }
}

struct EmailSourceRow: Codable, Sendable {
    static let table = "email_sources"
    var teamID: String
    var value: String
    var addedAt: Double
    var checkStatus: String
    var checkedAt: Double?
    var dkimPublicKey: String?

    enum CodingKeys: String, CodingKey {
        case value
        case teamID = "team_id"
        case addedAt = "added_at"
        case checkStatus = "check_status"
        case checkedAt = "checked_at"
        case dkimPublicKey = "dkim_public_key"
    }

    init(_ source: EmailSource) {
        teamID = source.teamID.rawValue
        value = source.value
        addedAt = source.addedAt.sqlSeconds
        checkStatus = source.check.rawValue
        checkedAt = source.checkedAt?.sqlSeconds
        dkimPublicKey = source.dkimPublicKey
    }

    func source() throws -> EmailSource {
        EmailSource(
            teamID: TeamID(rawValue: teamID), value: value, addedAt: Date(sqlSeconds: addedAt),
            check: try .decoded(checkStatus, table: Self.table, column: "check_status"), checkedAt: checkedAt.map(Date.init(sqlSeconds:)),
            dkimPublicKey: dkimPublicKey)
    }
}

struct DeveloperRow: Codable, Sendable {
    static let table = "developers"
    var id: String
    var email: String
    var name: String
    var passwordHash: String
    /// JSON array of Team IDs.
    var teamIDs: String

    enum CodingKeys: String, CodingKey {
        case id, email, name
        case passwordHash = "password_hash"
        case teamIDs = "team_ids"
    }

    init(_ developer: DeveloperAccount) throws {
        id = developer.id
        email = developer.email
        name = developer.name
        passwordHash = developer.passwordHash
        teamIDs = try JSONColumn.encode(developer.teamIDs.map(\.rawValue))
    }

    func developer() throws -> DeveloperAccount {
        DeveloperAccount(
            id: id, email: email, name: name, passwordHash: passwordHash,
            teamIDs: try JSONColumn.decode([String].self, from: teamIDs).map(TeamID.init(rawValue:)))
    }
}

struct ConsoleSessionRow: Codable, Sendable {
    static let table = "console_sessions"
    var idHash: String
    var developerID: String
    var teamID: String
    var csrfToken: String
    var expiresAt: Double

    enum CodingKeys: String, CodingKey {
        case idHash = "id_hash"
        case developerID = "developer_id"
        case teamID = "team_id"
        case csrfToken = "csrf_token"
        case expiresAt = "expires_at"
    }

    init(_ session: ConsoleSession) {
        idHash = session.idHash
        developerID = session.developerID
        teamID = session.teamID.rawValue
        csrfToken = session.csrfToken
        expiresAt = session.expiresAt.sqlSeconds
    }

    func session() -> ConsoleSession {
        ConsoleSession(
            idHash: idHash, developerID: developerID, teamID: TeamID(rawValue: teamID), csrfToken: csrfToken,
            expiresAt: Date(sqlSeconds: expiresAt))
    }
}
