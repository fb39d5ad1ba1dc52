import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore: AccountStore {
    public func account(id: String) async throws -> AppleIDAccount? {
        try await row(AccountRow.self, from: AccountRow.table, where: "id", equals: id)?.account(opening: sealer)
    }

    public func account(appleID: String) async throws -> AppleIDAccount? {
        try await row(AccountRow.self, from: AccountRow.table, where: "apple_id", equals: appleID.lowercased())?.account(opening: sealer)
    }

    public func accounts() async throws -> [AppleIDAccount] {
        // Binary collation in SQLite; a PostgreSQL port should order by `apple_id COLLATE "C"` to
        // match the memory store's code-point order exactly.
        try await db.select().column("*").from(AccountRow.table)
            .orderBy("created_at")
            .orderBy("apple_id")
            .all(decoding: AccountRow.self)
            .map { try $0.account(opening: sealer) }
    }

    /// Upserts by id. The unique index on `apple_id` is what enforces uniqueness (no check-then-write
    /// race); a violation is reported as ``StoreError/conflict(_:)`` like the memory store does.
    public func save(_ account: AppleIDAccount) async throws {
        do {
            try await upsert(try AccountRow(account, sealing: sealer), into: AccountRow.table, key: ["id"])
        } catch {
            // Portable: instead of parsing a driver-specific constraint error, look for the other row.
            let other = try await db.select().column("id").from(AccountRow.table)
                .where("apple_id", .equal, account.appleID)
                .where("id", .notEqual, account.id)
                .first()
            if other != nil { throw StoreError.conflict("Apple ID \(account.appleID) already exists") }
            throw error
        }
    }

    public func teamIdentity(accountID: String, teamID: TeamID) async throws -> TeamIdentity? {
        try await prepared.select().column("*").from(TeamIdentityRow.table)
            .where("account_id", .equal, accountID)
            .where("team_id", .equal, teamID.rawValue)
            .first(decoding: TeamIdentityRow.self)?
            .identity()
    }

    public func teamIdentity(relayAddress: String) async throws -> TeamIdentity? {
        try await row(TeamIdentityRow.self, from: TeamIdentityRow.table, where: "relay_address", equals: relayAddress)?.identity()
    }

    public func teamIdentity(subject: Subject, teamID: TeamID) async throws -> TeamIdentity? {
        try await db.select().column("*").from(TeamIdentityRow.table)
            .where("subject", .equal, subject.rawValue)
            .where("team_id", .equal, teamID.rawValue)
            .first(decoding: TeamIdentityRow.self)?
            .identity()
    }

    /// `INSERT ... ON CONFLICT (account_id, team_id) DO NOTHING`, then read back whichever row won.
    public func insertTeamIdentity(_ identity: TeamIdentity) async throws -> TeamIdentity {
        try await db.insert(into: TeamIdentityRow.table)
            .model(TeamIdentityRow(identity), with: Self.rowEncoder)
            .ignoringConflicts(with: TeamIdentityRow.key)
            .run()
        guard let stored = try await teamIdentity(accountID: identity.accountID, teamID: identity.teamID) else {
            // Only possible if the row was deleted in between; the store never deletes identities.
            throw StoreError.conflict("team identity of \(identity.accountID) for \(identity.teamID) vanished")
        }
        return stored
    }

    public func save(_ identity: TeamIdentity) async throws {
        try await upsert(TeamIdentityRow(identity), into: TeamIdentityRow.table, key: TeamIdentityRow.key)
    }
}

struct AccountRow: Codable, Sendable {
    static let table = "accounts"
    var id: String
    var appleID: String
    var passwordHash: String
    var firstName: String
    var lastName: String
    var email: String
    var realUserStatus: Int
    var totpSecret: String
    var twoFactorEnabled: Bool
    /// JSON array of addresses.
    var additionalEmails: String
    var createdAt: Double
    var deletedAt: Double?
    /// The ``ManagedMembership`` of a Managed Apple ID: `nil` / `false` for a consumer Apple ID.
    var organizationID: String?
    var organizationEmail: String?
    var deactivated: Bool

    enum CodingKeys: String, CodingKey {
        case id, email, deactivated
        case appleID = "apple_id"
        case passwordHash = "password_hash"
        case firstName = "first_name"
        case lastName = "last_name"
        case realUserStatus = "real_user_status"
        case totpSecret = "totp_secret"
        case twoFactorEnabled = "two_factor_enabled"
        case additionalEmails = "additional_emails"
        case createdAt = "created_at"
        case deletedAt = "deleted_at"
        case organizationID = "organization_id"
        case organizationEmail = "organization_email"
    }

    /// The TOTP secret is sealed bound to `totp:<id>` (see ``SecretSealer``): a copy of the database
    /// alone cannot make anyone's two-factor codes.
    static func sealingContext(accountID: String) -> String { "totp:" + accountID }

    init(_ account: AppleIDAccount, sealing sealer: SecretSealer?) throws {
        id = account.id
        appleID = account.appleID
        passwordHash = account.passwordHash
        firstName = account.firstName
        lastName = account.lastName
        email = account.email
        realUserStatus = account.realUserStatus.rawValue
        totpSecret = try sealer?.seal(account.totpSecret, boundTo: Self.sealingContext(accountID: account.id)) ?? account.totpSecret
        twoFactorEnabled = account.twoFactorEnabled
        additionalEmails = try JSONColumn.encode(account.additionalEmails)
        createdAt = account.createdAt.sqlSeconds
        deletedAt = account.deletedAt?.sqlSeconds
        organizationID = account.managed?.organizationID.uuidString
        organizationEmail = account.managed?.organizationEmail
        deactivated = account.managed?.isDeactivated ?? false
    }

    func account(opening sealer: SecretSealer?) throws -> AppleIDAccount {
        let totpSecret: String
        if let sealer {
            totpSecret = try sealer.open(self.totpSecret, boundTo: Self.sealingContext(accountID: id))
        } else {
            guard !SecretSealer.isSealed(self.totpSecret) else { throw SealingError.noKey("the TOTP secret of account \(id)") }
            totpSecret = self.totpSecret
        }
        var account = AppleIDAccount(
            id: id, appleID: appleID, passwordHash: passwordHash, firstName: firstName, lastName: lastName, email: email,
            realUserStatus: try .decoded(realUserStatus, table: Self.table, column: "real_user_status"),
            totpSecret: totpSecret, twoFactorEnabled: twoFactorEnabled, createdAt: Date(sqlSeconds: createdAt),
            deletedAt: deletedAt.map(Date.init(sqlSeconds:)), additionalEmails: try JSONColumn.decode([String].self, from: additionalEmails)
        )
        account.appleID = appleID  // as stored, even if someone stored it not lowercased
        if let organizationID {
            account.managed = ManagedMembership(
                organizationID: try UUID.decoded(organizationID, table: Self.table, column: "organization_id"),
                organizationEmail: organizationEmail, isDeactivated: deactivated)
        }
        return account
    }
}

struct TeamIdentityRow: Codable, Sendable {
    static let table = "team_identities"
    static let key = ["account_id", "team_id"]
    var accountID: String
    var teamID: String
    var subject: String
    var relayAddress: String?
    var relayForwardingEnabled: Bool

    enum CodingKeys: String, CodingKey {
        case subject
        case accountID = "account_id"
        case teamID = "team_id"
        case relayAddress = "relay_address"
        case relayForwardingEnabled = "relay_forwarding_enabled"
    }

    init(_ identity: TeamIdentity) {
        accountID = identity.accountID
        teamID = identity.teamID.rawValue
        subject = identity.subject.rawValue
        relayAddress = identity.relayAddress
        relayForwardingEnabled = identity.relayForwardingEnabled
    }

    func identity() -> TeamIdentity {
        TeamIdentity(
            accountID: accountID, teamID: TeamID(rawValue: teamID), subject: Subject(rawValue: subject),
            relayAddress: relayAddress, relayForwardingEnabled: relayForwardingEnabled
        )
    }
}
