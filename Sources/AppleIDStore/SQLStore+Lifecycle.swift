import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore: LifecycleStore {
    public func consents(accountID: String) async throws -> [Consent] {
        try await db.select().column("*").from(ConsentRow.table)
            .where("account_id", .equal, accountID)
            .orderBy("granted_at")
            .all(decoding: ConsentRow.self)
            .map { try $0.consent() }
    }

    public func teamIdentities(accountID: String) async throws -> [TeamIdentity] {
        try await db.select().column("*").from(TeamIdentityRow.table)
            .where("account_id", .equal, accountID)
            .orderBy("team_id")
            .all(decoding: TeamIdentityRow.self)
            .map { $0.identity() }
    }

    public func stopUsing(accountID: String, groupID: ClientID, at date: Date, notifying messages: [OutboxMessage]) async throws {
        let rows = try messages.map(OutboxRow.init)
        try await transaction { db in
            try await Self.stopUsing(accountID: accountID, groupID: groupID, at: date, on: db)
            try await Self.write(rows, to: db)
        }
    }

    /// Revokes the user's live grants of the group and forgets the consent (also an organization's
    /// withdrawal of the app).
    static func stopUsing(accountID: String, groupID: ClientID, at date: Date, on db: any SQLDatabase) async throws {
        try await db.update(GrantRow.table)
            .set("revoked_at", to: date.sqlSeconds)
            .where("account_id", .equal, accountID)
            .where("group_id", .equal, groupID.rawValue)
            .where("revoked_at", .is, SQLLiteral.null)
            .run()
        try await db.delete(from: ConsentRow.table)
            .where("account_id", .equal, accountID)
            .where("group_id", .equal, groupID.rawValue)
            .run()
    }

    public func setRelayForwarding(_ identity: TeamIdentity, enabled: Bool, notifying messages: [OutboxMessage]) async throws {
        let rows = try messages.map(OutboxRow.init)
        try await transaction { db in
            try await db.update(TeamIdentityRow.table)
                .set("relay_forwarding_enabled", to: enabled)
                .where("account_id", .equal, identity.accountID)
                .where("team_id", .equal, identity.teamID.rawValue)
                .run()
            try await Self.write(rows, to: db)
        }
    }

    public func deleteAccount(id: String, at date: Date, notifying messages: [OutboxMessage]) async throws {
        let rows = try messages.map(OutboxRow.init)
        try await transaction { db in
            try await db.update(AccountRow.table).set("deleted_at", to: date.sqlSeconds).where("id", .equal, id).run()
            try await db.update(GrantRow.table)
                .set("revoked_at", to: date.sqlSeconds)
                .where("account_id", .equal, id)
                .where("revoked_at", .is, SQLLiteral.null)
                .run()
            try await db.delete(from: ConsentRow.table).where("account_id", .equal, id).run()
            try await db.update(TeamIdentityRow.table).set("relay_forwarding_enabled", to: false).where("account_id", .equal, id).run()
            try await db.delete(from: BrowserSessionRow.table).where("account_id", .equal, id).run()
            try await db.delete(from: KeychainPasswordRow.table).where("account_id", .equal, id).run()
            try await Self.write(rows, to: db)
        }
    }
}

extension SQLStore: ExpiredRecordStore {
    public func purgeExpired(now: Date, codesExpiredBefore: Date) async throws -> Int {
        var removed = 0
        removed += try await db.delete(from: CodeRow.table).where("expires_at", .lessThan, codesExpiredBefore.sqlSeconds)
            .returning("code_hash").all().count
        // Refresh tokens have no expiry (NULL) and stay until revoked.
        removed += try await db.delete(from: TokenRow.table).where("expires_at", .lessThan, now.sqlSeconds)
            .returning("token_hash").all().count
        removed += try await db.delete(from: "interactions").where("expires_at", .lessThan, now.sqlSeconds).returning("id").all().count
        removed += try await db.delete(from: BrowserSessionRow.table).where("expires_at", .lessThan, now.sqlSeconds)
            .returning("id_hash").all().count
        removed += try await db.delete(from: MigrationTokenRow.table).where("expires_at", .lessThan, now.sqlSeconds)
            .returning("token_hash").all().count
        removed += try await db.delete(from: FlowRecordRow.table).where("expires_at", .lessThanOrEqual, now.sqlSeconds)
            .returning("key_hash").all().count
        return removed
    }
}
