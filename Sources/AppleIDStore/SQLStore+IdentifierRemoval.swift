import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit

/// Removed identifiers (version 32): kept so that another team cannot register them, and so that the
/// last `consent-revoked` messages of a removed primary App ID find its endpoint. The migration also
/// ends what earlier versions left behind a removal: consents of a group that no longer exists, and
/// live grants of a client that no longer exists.
extension SQLStore: IdentifierRemovalStore {
    static let identifierRemovalMigrations: [SchemaMigration] = [
        SchemaMigration(
            version: 32,
            statements: [
                """
                CREATE TABLE IF NOT EXISTS removed_identifiers (
                    id TEXT PRIMARY KEY,
                    team_id TEXT NOT NULL,
                    removed_at DOUBLE PRECISION NOT NULL,
                    notification_endpoint TEXT
                )
                """,
                "DELETE FROM consents WHERE group_id NOT IN (SELECT primary_app_id FROM app_groups)",
                "UPDATE grants SET revoked_at = created_at WHERE revoked_at IS NULL AND client_id NOT IN (SELECT id FROM clients)",
            ])
    ]

    public func remove(_ removal: IdentifierRemoval) async throws {
        let removed = removal.identifier
        let messages = try removal.messages.map(OutboxRow.init)
        try await transaction { db in
            try await db.delete(from: ClientRow.table).where("id", .equal, removed.id.rawValue).run()
            // The identifier's live grants, and with a primary App ID every live grant of its group.
            var revoked: [(column: String, value: String)] = [("client_id", removed.id.rawValue)]
            if let groupID = removal.groupID { revoked.append(("group_id", groupID.rawValue)) }
            for (column, value) in revoked {
                try await db.update(GrantRow.table)
                    .set("revoked_at", to: removed.removedAt.sqlSeconds)
                    .where(SQLIdentifier(column), .equal, SQLBind(value))
                    .where("revoked_at", .is, SQLLiteral.null)
                    .run()
            }
            if let groupID = removal.groupID {
                try await db.delete(from: ConsentRow.table).where("group_id", .equal, groupID.rawValue).run()
                try await db.delete(from: AppGroupRow.table).where("primary_app_id", .equal, groupID.rawValue).run()
            }
            try await Self.upsert(RemovedIdentifierRow(removed), into: RemovedIdentifierRow.table, key: ["id"], on: db)
            try await Self.write(messages, to: db)
        }
    }

    public func removedIdentifier(_ id: ClientID) async throws -> RemovedIdentifier? {
        try await db.select().column("*").from(RemovedIdentifierRow.table).where("id", .equal, id.rawValue)
            .first(decoding: RemovedIdentifierRow.self)?.removed()
    }

    public func consentingSubjects(groupID: ClientID, teamID: TeamID) async throws -> [Subject] {
        try await db.raw(
            """
            SELECT team_identities.subject AS subject FROM consents
            JOIN team_identities ON team_identities.account_id = consents.account_id AND team_identities.team_id = \(bind: teamID.rawValue)
            WHERE consents.group_id = \(bind: groupID.rawValue)
            ORDER BY consents.granted_at, team_identities.subject
            """
        ).all().map { Subject(rawValue: try $0.decode(column: "subject", as: String.self)) }
    }
}

struct RemovedIdentifierRow: Codable, Sendable {
    static let table = "removed_identifiers"
    var id: String
    var teamID: String
    var removedAt: Double
    var notificationEndpoint: String?

    enum CodingKeys: String, CodingKey {
        case id
        case teamID = "team_id"
        case removedAt = "removed_at"
        case notificationEndpoint = "notification_endpoint"
    }

    init(_ removed: RemovedIdentifier) {
        id = removed.id.rawValue
        teamID = removed.teamID.rawValue
        removedAt = removed.removedAt.sqlSeconds
        notificationEndpoint = removed.notificationEndpoint
    }

    func removed() -> RemovedIdentifier {
        RemovedIdentifier(
            id: ClientID(rawValue: id), teamID: TeamID(rawValue: teamID), removedAt: Date(sqlSeconds: removedAt),
            notificationEndpoint: notificationEndpoint)
    }
}
