import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit

/// Team invitations. Redeeming one deletes its row with `DELETE … RETURNING` and writes the member in
/// the same transaction: of concurrent redeemers exactly one sees the row, and a failed write leaves
/// the invitation usable.
extension SQLStore: TeamInvitationStore {
    public func add(_ invitation: TeamInvitation, limit: Int, now: Date) async throws -> Bool {
        try await transaction { db in
            if db.dialect.name == "postgresql" {
                // Concurrent invitations of one team take turns, so the limit holds (SQLite's writer is one).
                try await db.raw("SELECT pg_advisory_xact_lock(hashtext(\(bind: "team_invitations:" + invitation.teamID.rawValue)))").run()
            }
            try await db.delete(from: InvitationRow.table)
                .where("team_id", .equal, invitation.teamID.rawValue).where("email", .equal, invitation.email).run()
            let pending =
                try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "pending").from(InvitationRow.table)
                .where("team_id", .equal, invitation.teamID.rawValue).where("expires_at", .greaterThan, now.sqlSeconds)
                .first()?.decode(column: "pending", as: Int.self) ?? 0
            guard pending < limit else { return false }
            try await db.insert(into: InvitationRow.table).model(InvitationRow(invitation), with: Self.rowEncoder).run()
            return true
        }
    }

    public func invitation(idHash: String) async throws -> TeamInvitation? {
        try await row(InvitationRow.self, from: InvitationRow.table, where: "id_hash", equals: idHash)?.invitation()
    }

    public func invitations(teamID: TeamID, now: Date) async throws -> [TeamInvitation] {
        try await db.select().column("*").from(InvitationRow.table)
            .where("team_id", .equal, teamID.rawValue).where("expires_at", .greaterThan, now.sqlSeconds)
            .orderBy("created_at", .descending).orderBy("email", .descending)
            .all(decoding: InvitationRow.self).map { $0.invitation() }
    }

    public func deleteInvitation(teamID: TeamID, email: String) async throws -> Bool {
        try await db.raw(
            """
            DELETE FROM team_invitations WHERE team_id = \(bind: teamID.rawValue) AND email = \(bind: email.lowercased())
            RETURNING id_hash
            """
        ).all().count > 0
    }

    public func redeemInvitation(idHash: String, now: Date, registering: DeveloperAccount?) async throws -> DeveloperAccount? {
        do {
            return try await transaction { db in
                guard
                    let row = try await db.raw(
                        """
                        DELETE FROM team_invitations WHERE id_hash = \(bind: idHash) AND expires_at > \(bind: now.sqlSeconds)
                        RETURNING team_id, email
                        """
                    ).first()
                else { return nil }
                let teamID = TeamID(rawValue: try row.decode(column: "team_id", as: String.self))
                let email = try row.decode(column: "email", as: String.self)
                let lock: SQLQueryString = db.dialect.name == "postgresql" ? " FOR UPDATE" : ""
                let existing = try await db.raw("SELECT * FROM developers WHERE email = \(bind: email)\(lock)")
                    .first(decoding: DeveloperRow.self)?.developer()
                var member: DeveloperAccount
                if let registering {
                    guard existing == nil, registering.email == email else { throw InvitationMismatch() }
                    member = registering
                } else {
                    guard let existing else { throw InvitationMismatch() }
                    member = existing
                }
                if !member.teamIDs.contains(teamID) { member.teamIDs.append(teamID) }
                try await Self.upsert(try DeveloperRow(member), into: DeveloperRow.table, key: ["id"], on: db)
                return member
            }
        } catch is InvitationMismatch {
            return nil
        }
    }

    public func purgeInvitations(expiredBefore date: Date) async throws -> Int {
        try await db.raw("DELETE FROM team_invitations WHERE expires_at < \(bind: date.sqlSeconds) RETURNING id_hash").all().count
    }

    public func deleteConsoleSessions(developerID: String, except idHash: String?) async throws -> Int {
        try await db.raw(
            """
            DELETE FROM console_sessions WHERE developer_id = \(bind: developerID) AND id_hash <> \(bind: idHash ?? "")
            RETURNING id_hash
            """
        ).all().count
    }
}

/// Thrown inside a redemption's transaction so that it rolls back: the account is not as expected.
private struct InvitationMismatch: Error {}

struct InvitationRow: Codable, Sendable {
    static let table = "team_invitations"
    var idHash: String
    var teamID: String
    var email: String
    var invitedBy: String
    var createdAt: Double
    var expiresAt: Double

    enum CodingKeys: String, CodingKey {
        case email
        case idHash = "id_hash"
        case teamID = "team_id"
        case invitedBy = "invited_by"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
    }

    init(_ invitation: TeamInvitation) {
        idHash = invitation.idHash
        teamID = invitation.teamID.rawValue
        email = invitation.email
        invitedBy = invitation.invitedBy
        createdAt = invitation.createdAt.sqlSeconds
        expiresAt = invitation.expiresAt.sqlSeconds
    }

    func invitation() -> TeamInvitation {
        TeamInvitation(
            idHash: idHash, teamID: TeamID(rawValue: teamID), email: email, invitedBy: invitedBy, createdAt: Date(sqlSeconds: createdAt),
            expiresAt: Date(sqlSeconds: expiresAt))
    }
}
