import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore: OrganizationStore {
    public func organization(id: UUID) async throws -> Organization? {
        try await row(OrganizationRow.self, from: OrganizationRow.table, where: "id", equals: id.uuidString)?.organization()
    }

    public func organizations() async throws -> [Organization] {
        try await db.select().column("*").from(OrganizationRow.table)
            .orderBy("name").orderBy("id")
            .all(decoding: OrganizationRow.self)
            .map { try $0.organization() }
    }

    public func save(_ organization: Organization, withdrawal: PendingWithdrawal?) async throws {
        let row = try OrganizationRow(organization)
        try await transaction { db in
            try await Self.upsert(row, into: OrganizationRow.table, key: ["id"], on: db)
            guard let withdrawal else { return }
            // The pending one, if any, stays: it is earlier and covers this change as well.
            try await db.insert(into: WithdrawalRow.table)
                .model(WithdrawalRow(withdrawal), with: Self.rowEncoder)
                .ignoringConflicts(with: ["organization_id"])
                .run()
        }
    }

    public func accounts(organizationID: UUID) async throws -> [AppleIDAccount] {
        try await db.select().column("*").from(AccountRow.table)
            .where("organization_id", .equal, organizationID.uuidString)
            .orderBy("created_at").orderBy("apple_id")
            .all(decoding: AccountRow.self)
            .map { try $0.account(opening: sealer) }
    }

    public func dueWithdrawals(at now: Date, limit: Int) async throws -> [PendingWithdrawal] {
        try await db.select().column("*").from(WithdrawalRow.table)
            .where("due_at", .lessThanOrEqual, now.sqlSeconds)
            .orderBy("due_at").orderBy("organization_id")
            .limit(limit)
            .all(decoding: WithdrawalRow.self)
            .map { try $0.withdrawal() }
    }

    public func complete(
        _ withdrawal: PendingWithdrawal, revoking revocations: [ConsentKey], at date: Date, notifying messages: [OutboxMessage]
    ) async throws {
        let rows = try messages.map(OutboxRow.init)
        try await transaction { db in
            for revocation in revocations {
                try await Self.stopUsing(accountID: revocation.accountID, groupID: revocation.groupID, at: date, on: db)
            }
            try await Self.write(rows, to: db)
            try await db.delete(from: WithdrawalRow.table).where("organization_id", .equal, withdrawal.organizationID.uuidString).run()
        }
    }
}

struct OrganizationRow: Codable, Sendable {
    static let table = "organizations"
    var id: String
    var kind: String
    var name: String
    /// JSON array of domains.
    var verifiedDomains: String
    var accessRule: String
    /// JSON array of primary App IDs.
    var allowedApps: String
    var createdAt: Double

    enum CodingKeys: String, CodingKey {
        case id, kind, name
        case verifiedDomains = "verified_domains"
        case accessRule = "access_rule"
        case allowedApps = "allowed_apps"
        case createdAt = "created_at"
    }

    init(_ organization: Organization) throws {
        id = organization.id.uuidString
        kind = organization.kind.rawValue
        name = organization.name
        verifiedDomains = try JSONColumn.encode(organization.verifiedDomains)
        accessRule = organization.accessRule.rawValue
        allowedApps = try JSONColumn.encode(organization.allowedApps)
        createdAt = organization.createdAt.sqlSeconds
    }

    func organization() throws -> Organization {
        Organization(
            id: try UUID.decoded(id, table: Self.table, column: "id"), kind: try .decoded(kind, table: Self.table, column: "kind"),
            name: name, verifiedDomains: try JSONColumn.decode([String].self, from: verifiedDomains),
            accessRule: try .decoded(accessRule, table: Self.table, column: "access_rule"),
            allowedApps: try JSONColumn.decode([ClientID].self, from: allowedApps), createdAt: Date(sqlSeconds: createdAt))
    }
}

struct WithdrawalRow: Codable, Sendable {
    static let table = "organization_withdrawals"
    var organizationID: String
    var dueAt: Double

    enum CodingKeys: String, CodingKey {
        case organizationID = "organization_id"
        case dueAt = "due_at"
    }

    init(_ withdrawal: PendingWithdrawal) {
        organizationID = withdrawal.organizationID.uuidString
        dueAt = withdrawal.dueAt.sqlSeconds
    }

    func withdrawal() throws -> PendingWithdrawal {
        PendingWithdrawal(
            organizationID: try UUID.decoded(organizationID, table: Self.table, column: "organization_id"), dueAt: Date(sqlSeconds: dueAt))
    }
}

extension UUID {
    /// The UUID of a column, or ``StoreDecodingError``.
    static func decoded(_ text: String, table: String, column: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw StoreDecodingError(table: table, column: column, value: text) }
        return id
    }
}
