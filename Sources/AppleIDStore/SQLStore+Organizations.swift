import AppleIDOrganizations
import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore: OrganizationStore, OrganizationAdminStore {
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
            // A withdrawal being handled now runs again under the new rule: its pass completes nothing.
            try await db.update(WithdrawalRow.table)
                .set("leased_by", to: SQLLiteral.null).set("lease_expires_at", to: SQLLiteral.null)
                .where("organization_id", .equal, row.id)
                .run()
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

    /// One statement, as the outbox's leases (``leaseStatement(table:key:pick:claimable:holder:until:)``).
    public func claimDueWithdrawals(at now: Date, holder: String, until expiry: Date, limit: Int) async throws -> [PendingWithdrawal] {
        let claimable: SQLQueryString = "due_at <= \(bind: now.sqlSeconds) AND \(Self.leaseIsFree(at: now))"
        let skipLocked: SQLQueryString = db.dialect.name == "postgresql" ? " FOR UPDATE SKIP LOCKED" : ""
        let pick: SQLQueryString = """
            SELECT organization_id FROM organization_withdrawals WHERE \(claimable) \
            ORDER BY due_at, organization_id LIMIT \(literal: max(0, limit))\(skipLocked)
            """
        return try await db.raw(
            Self.leaseStatement(table: WithdrawalRow.table, key: "organization_id", pick: pick, claimable: claimable, holder: holder, until: expiry)
        )
        .all(decoding: WithdrawalRow.self)
        .map { try $0.withdrawal() }
        .sorted { ($0.dueAt, $0.organizationID.uuidString) < ($1.dueAt, $1.organizationID.uuidString) }
    }

    public func consents(organizationID: UUID, outside kept: [ClientID]) async throws -> [OrganizationConsent] {
        try await db.raw(
            """
            SELECT c.account_id, c.group_id, t.subject FROM consents c \
            LEFT JOIN app_groups g ON g.primary_app_id = c.group_id \
            LEFT JOIN team_identities t ON t.account_id = c.account_id AND t.team_id = g.team_id \
            WHERE \(Self.members(of: organizationID, column: "c.account_id"))\(Self.outside(kept, column: "c.group_id")) \
            ORDER BY c.account_id, c.group_id
            """
        )
        .all(decoding: OrganizationConsentRow.self)
        .map {
            OrganizationConsent(accountID: $0.accountID, groupID: ClientID(rawValue: $0.groupID), subject: $0.subject.map(Subject.init(rawValue:)))
        }
    }

    /// Three statements and the messages' inserts, whatever the number of members: the claim is
    /// taken back first, and without it nothing else runs.
    public func complete(
        _ withdrawal: PendingWithdrawal, holder: String, revokingOutside kept: [ClientID]?, at date: Date, notifying messages: [OutboxMessage]
    ) async throws -> Bool {
        let rows = try messages.map(OutboxRow.init)
        let id = withdrawal.organizationID
        return try await transaction { db in
            let taken = try await db.delete(from: WithdrawalRow.table)
                .where("organization_id", .equal, id.uuidString).where("leased_by", .equal, holder)
                .returning("organization_id").all()
            guard !taken.isEmpty else { return false }
            if let kept {
                let affected: SQLQueryString = "\(Self.members(of: id, column: "account_id"))\(Self.outside(kept, column: "group_id"))"
                try await db.raw("UPDATE grants SET revoked_at = \(bind: date.sqlSeconds) WHERE revoked_at IS NULL AND \(affected)").run()
                try await db.raw("DELETE FROM consents WHERE \(affected)").run()
            }
            try await Self.write(rows, to: db)
            return true
        }
    }

    /// `column` is one of the organization's live Managed Apple IDs.
    private static func members(of organizationID: UUID, column: String) -> SQLQueryString {
        "\(unsafeRaw: column) IN (SELECT id FROM accounts WHERE organization_id = \(bind: organizationID.uuidString) AND deleted_at IS NULL)"
    }

    /// ` AND column NOT IN (kept)`, or nothing when `kept` is empty.
    private static func outside(_ kept: [ClientID], column: String) -> SQLQueryString {
        kept.isEmpty ? "" : " AND \(unsafeRaw: column) NOT IN (\(binds: kept.map(\.rawValue)))"
    }
}

/// A row of ``SQLStore/consents(organizationID:outside:)``.
struct OrganizationConsentRow: Decodable {
    var accountID: String
    var groupID: String
    var subject: String?

    enum CodingKeys: String, CodingKey {
        case accountID = "account_id"
        case groupID = "group_id"
        case subject
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
    var federationURL: String?

    enum CodingKeys: String, CodingKey {
        case id, kind, name
        case verifiedDomains = "verified_domains"
        case accessRule = "access_rule"
        case allowedApps = "allowed_apps"
        case createdAt = "created_at"
        case federationURL = "federation_url"
    }

    init(_ organization: Organization) throws {
        id = organization.id.uuidString
        kind = organization.kind.rawValue
        name = organization.name
        verifiedDomains = try JSONColumn.encode(organization.verifiedDomains)
        accessRule = organization.accessRule.rawValue
        allowedApps = try JSONColumn.encode(organization.allowedApps)
        createdAt = organization.createdAt.sqlSeconds
        federationURL = organization.federationURL
    }

    func organization() throws -> Organization {
        Organization(
            id: try UUID.decoded(id, table: Self.table, column: "id"), kind: try .decoded(kind, table: Self.table, column: "kind"),
            name: name, verifiedDomains: try JSONColumn.decode([String].self, from: verifiedDomains),
            accessRule: try .decoded(accessRule, table: Self.table, column: "access_rule"),
            allowedApps: try JSONColumn.decode([ClientID].self, from: allowedApps), createdAt: Date(sqlSeconds: createdAt),
            federationURL: federationURL)
    }
}

struct WithdrawalRow: Codable, Sendable {
    static let table = "organization_withdrawals"
    var organizationID: String
    var dueAt: Double
    /// The pass handling it now (version 28), and until when.
    var leasedBy: String?
    var leaseExpiresAt: Double?

    enum CodingKeys: String, CodingKey {
        case organizationID = "organization_id"
        case dueAt = "due_at"
        case leasedBy = "leased_by"
        case leaseExpiresAt = "lease_expires_at"
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
