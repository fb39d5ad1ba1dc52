import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore: TransferStore {
    public func transfers(groupID: ClientID) async throws -> [AppTransfer] {
        try await prepared.select().column("*").from(TransferRow.table)
            .where("group_id", .equal, groupID.rawValue)
            .orderBy("transferred_at", .descending)
            .all(decoding: TransferRow.self)
            .map { $0.transfer() }
    }

    public func clients(groupID: ClientID) async throws -> [RegisteredClient] {
        try await db.select().column("*").from(ClientRow.table)
            .where("group_id", .equal, groupID.rawValue)
            .orderBy("id")
            .all(decoding: ClientRow.self)
            .map { try $0.client() }
    }

    public func consents(groupID: ClientID) async throws -> [Consent] {
        try await db.select().column("*").from(ConsentRow.table)
            .where("group_id", .equal, groupID.rawValue)
            .orderBy("granted_at").orderBy("account_id")
            .all(decoding: ConsentRow.self)
            .map { try $0.consent() }
    }

    public func transferSubject(accountID: String, fromTeamID: TeamID, toTeamID: TeamID) async throws -> TransferSubject? {
        try await db.select().column("*").from(TransferSubjectRow.table)
            .where("account_id", .equal, accountID)
            .where("from_team_id", .equal, fromTeamID.rawValue)
            .where("to_team_id", .equal, toTeamID.rawValue)
            .first(decoding: TransferSubjectRow.self)?.transferSubject()
    }

    public func transferSubject(_ subject: Subject, toTeamID: TeamID) async throws -> TransferSubject? {
        try await db.select().column("*").from(TransferSubjectRow.table)
            .where("subject", .equal, subject.rawValue)
            .where("to_team_id", .equal, toTeamID.rawValue)
            .first(decoding: TransferSubjectRow.self)?.transferSubject()
    }

    public func apply(_ plan: TransferPlan) async throws {
        let group = AppGroupRow(plan.group)
        let clients = try plan.clients.map(ClientRow.init)
        let consents = try plan.consents.map(ConsentRow.init)
        let subjects = plan.newTransferSubjects.map(TransferSubjectRow.init)
        let transfer = TransferRow(plan.transfer)
        let identities = plan.recipientIdentities
        try await transaction { db in
            // Inserted only where the user has no identity in the team (a sign-in may have made one
            // since the plan was read: its `sub` stays), and the relay address only where there was none.
            for identity in identities {
                try await db.insert(into: TeamIdentityRow.table).model(TeamIdentityRow(identity), with: Self.rowEncoder)
                    .ignoringConflicts(with: TeamIdentityRow.key).run()
                if let relayAddress = identity.relayAddress {
                    try await db.update(TeamIdentityRow.table)
                        .set("relay_address", to: relayAddress)
                        .where("account_id", .equal, identity.accountID)
                        .where("team_id", .equal, identity.teamID.rawValue)
                        .where("relay_address", .is, SQLLiteral.null)
                        .run()
                }
            }
            try await Self.upsert(group, into: AppGroupRow.table, key: ["primary_app_id"], on: db)
            for client in clients { try await Self.upsert(client, into: ClientRow.table, key: ["id"], on: db) }
            try await db.update(GrantRow.table)
                .set("revoked_at", to: plan.transfer.transferredAt.sqlSeconds)
                .where("group_id", .equal, plan.group.primaryAppID.rawValue)
                .where("revoked_at", .is, SQLLiteral.null)
                .run()
            for consent in consents { try await Self.upsert(consent, into: ConsentRow.table, key: ConsentRow.key, on: db) }
            for subject in subjects {
                try await db.insert(into: TransferSubjectRow.table).model(subject, with: Self.rowEncoder)
                    .ignoringConflicts(with: ["account_id", "from_team_id", "to_team_id"]).run()
            }
            for identity in plan.retiredRelays {
                try await db.update(TeamIdentityRow.table)
                    .set("relay_forwarding_enabled", to: false)
                    .where("account_id", .equal, identity.accountID)
                    .where("team_id", .equal, identity.teamID.rawValue)
                    .run()
            }
            try await db.insert(into: TransferRow.table).model(transfer, with: Self.rowEncoder).run()
        }
    }

    public func save(_ token: MigrationToken) async throws {
        try await upsert(MigrationTokenRow(token), into: MigrationTokenRow.table, key: ["token_hash"])
    }

    public func migrationToken(hash: String) async throws -> MigrationToken? {
        try await row(MigrationTokenRow.self, from: MigrationTokenRow.table, where: "token_hash", equals: hash)?.token()
    }
}

struct TransferRow: Codable, Sendable {
    static let table = "app_transfers"
    var id: String
    var groupID: String
    var fromTeamID: String
    var toTeamID: String
    var transferredAt: Double
    var windowEndsAt: Double

    enum CodingKeys: String, CodingKey {
        case id
        case groupID = "group_id"
        case fromTeamID = "from_team_id"
        case toTeamID = "to_team_id"
        case transferredAt = "transferred_at"
        case windowEndsAt = "window_ends_at"
    }

    init(_ transfer: AppTransfer) {
        id = transfer.id
        groupID = transfer.groupID.rawValue
        fromTeamID = transfer.fromTeamID.rawValue
        toTeamID = transfer.toTeamID.rawValue
        transferredAt = transfer.transferredAt.sqlSeconds
        windowEndsAt = transfer.windowEndsAt.sqlSeconds
    }

    func transfer() -> AppTransfer {
        AppTransfer(
            id: id, groupID: ClientID(rawValue: groupID), fromTeamID: TeamID(rawValue: fromTeamID), toTeamID: TeamID(rawValue: toTeamID),
            transferredAt: Date(sqlSeconds: transferredAt), windowEndsAt: Date(sqlSeconds: windowEndsAt))
    }
}

struct TransferSubjectRow: Codable, Sendable {
    static let table = "transfer_subjects"
    var accountID: String
    var fromTeamID: String
    var toTeamID: String
    var subject: String

    enum CodingKeys: String, CodingKey {
        case subject
        case accountID = "account_id"
        case fromTeamID = "from_team_id"
        case toTeamID = "to_team_id"
    }

    init(_ subject: TransferSubject) {
        accountID = subject.accountID
        fromTeamID = subject.fromTeamID.rawValue
        toTeamID = subject.toTeamID.rawValue
        self.subject = subject.subject.rawValue
    }

    func transferSubject() -> TransferSubject {
        TransferSubject(
            accountID: accountID, fromTeamID: TeamID(rawValue: fromTeamID), toTeamID: TeamID(rawValue: toTeamID),
            subject: Subject(rawValue: subject))
    }
}

struct MigrationTokenRow: Codable, Sendable {
    static let table = "migration_tokens"
    var tokenHash: String
    var teamID: String
    var clientID: String
    var expiresAt: Double

    enum CodingKeys: String, CodingKey {
        case tokenHash = "token_hash"
        case teamID = "team_id"
        case clientID = "client_id"
        case expiresAt = "expires_at"
    }

    init(_ token: MigrationToken) {
        tokenHash = token.tokenHash
        teamID = token.teamID.rawValue
        clientID = token.clientID.rawValue
        expiresAt = token.expiresAt.sqlSeconds
    }

    func token() -> MigrationToken {
        MigrationToken(
            tokenHash: tokenHash, teamID: TeamID(rawValue: teamID), clientID: ClientID(rawValue: clientID),
            expiresAt: Date(sqlSeconds: expiresAt))
    }
}
