import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore: GrantStore {
    public func save(_ grant: Grant) async throws {
        try await upsert(try GrantRow(grant), into: GrantRow.table, key: ["id"])
    }

    /// All or nothing, in the order a reader follows the references: identity, consent, grant, code.
    /// On PostgreSQL one statement, prepared: the first three upserts are data-modifying CTEs of the
    /// code's (the foreign keys are checked when the whole statement has run), so an approval is one
    /// round trip instead of a transaction's up to six. SQLite has no such CTEs: there the upserts are
    /// one transaction, sent to the writer together.
    public func save(_ approval: Approval) async throws {
        var writes: [SQLInsert] = []
        if let identity = approval.identity {
            writes.append(try Self.upsertStatement(TeamIdentityRow(identity), into: TeamIdentityRow.table, key: TeamIdentityRow.key, on: db))
        }
        if let consent = approval.consent {
            writes.append(try Self.upsertStatement(try ConsentRow(consent), into: ConsentRow.table, key: ConsentRow.key, on: db))
        }
        writes.append(try Self.upsertStatement(try GrantRow(approval.grant), into: GrantRow.table, key: ["id"], on: db))
        let code = try Self.upsertStatement(CodeRow(approval.code), into: CodeRow.table, key: ["code_hash"], on: db)
        guard db.dialect.name == "postgresql" else {
            return try await connections.transaction(pipelining: writes + [code])
        }
        var query: SQLQueryString = ""
        for (index, write) in writes.enumerated() {
            query += index == 0 ? "WITH " : ", "
            query += "\(ident: "approved_\(index)") AS (\(write))"
        }
        try await prepared.raw(query + " \(code)").run()
    }

    public func grant(id: String) async throws -> Grant? {
        try await row(GrantRow.self, from: GrantRow.table, where: "id", equals: id)?.grant()
    }

    /// One `UPDATE ... WHERE revoked_at IS NULL RETURNING id`: the count is of the rows this call
    /// revoked, so two concurrent revocations never both count the same grant.
    public func revokeGrants(accountID: String, groupID: ClientID, at date: Date) async throws -> Int {
        try await db.update(GrantRow.table)
            .set("revoked_at", to: date.sqlSeconds)
            .where("account_id", .equal, accountID)
            .where("group_id", .equal, groupID.rawValue)
            .where("revoked_at", .is, SQLLiteral.null)
            .returning("id")
            .all()
            .count
    }

    /// Keeps the first revocation time.
    public func revokeGrant(id: String, at date: Date) async throws {
        try await db.update(GrantRow.table)
            .set("revoked_at", to: date.sqlSeconds)
            .where("id", .equal, id)
            .where("revoked_at", .is, SQLLiteral.null)
            .run()
    }

    public func save(_ code: AuthorizationCodeRecord) async throws {
        try await upsert(CodeRow(code), into: CodeRow.table, key: ["code_hash"])
    }

    public func authorizationCode(hash: String) async throws -> AuthorizationCodeRecord? {
        try await row(CodeRow.self, from: CodeRow.table, where: "code_hash", equals: hash)?.record()
    }

    /// A plain multi-row INSERT: token hashes are always new, so no conflict clause is needed, and
    /// the access and refresh token of an exchange cost one statement. Written as SQL text with binds
    /// rather than through the insert builder: every token request runs it, and encoding the rows as
    /// models cost more than the statement itself.
    public func insert(_ tokens: [TokenRecord]) async throws {
        guard !tokens.isEmpty else { return }
        var query: SQLQueryString = "INSERT INTO tokens (token_hash, kind, grant_id, client_id, created_at, expires_at) VALUES "
        for (index, token) in tokens.enumerated() {
            query += index == 0 ? "" : ", "
            query += """
                (\(bind: token.tokenHash), \(bind: token.kind.rawValue), \(bind: token.grantID), \(bind: token.clientID.rawValue), \
                \(bind: token.createdAt.sqlSeconds), \(bind: token.expiresAt?.sqlSeconds))
                """
        }
        try await prepared.raw(query).run()
    }

    public func token(hash: String) async throws -> TokenRecord? {
        try await row(TokenRow.self, from: TokenRow.table, where: "token_hash", equals: hash)?.record()
    }
}

struct GrantRow: Codable, Sendable {
    static let table = "grants"
    var id: String
    var accountID: String
    var teamID: String
    var groupID: String
    var clientID: String
    var subject: String
    /// JSON array of scope strings.
    var scopes: String
    var email: String?
    var isPrivateEmail: Bool
    var realUserStatus: Int
    var authTime: Double
    var createdAt: Double
    var revokedAt: Double?
    var transferSubject: String?
    var transferWindowEndsAt: Double?
    var organizationID: String?

    enum CodingKeys: String, CodingKey {
        case id, subject, scopes, email
        case organizationID = "organization_id"
        case transferSubject = "transfer_subject"
        case transferWindowEndsAt = "transfer_window_ends_at"
        case accountID = "account_id"
        case teamID = "team_id"
        case groupID = "group_id"
        case clientID = "client_id"
        case isPrivateEmail = "is_private_email"
        case realUserStatus = "real_user_status"
        case authTime = "auth_time"
        case createdAt = "created_at"
        case revokedAt = "revoked_at"
    }

    init(_ grant: Grant) throws {
        id = grant.id
        accountID = grant.accountID
        teamID = grant.teamID.rawValue
        groupID = grant.groupID.rawValue
        clientID = grant.clientID.rawValue
        subject = grant.subject.rawValue
        scopes = try JSONColumn.encode(grant.scopes)
        email = grant.email
        isPrivateEmail = grant.isPrivateEmail
        realUserStatus = grant.realUserStatus.rawValue
        authTime = grant.authTime.sqlSeconds
        createdAt = grant.createdAt.sqlSeconds
        revokedAt = grant.revokedAt?.sqlSeconds
        transferSubject = grant.transferSubject?.rawValue
        transferWindowEndsAt = grant.transferWindowEndsAt?.sqlSeconds
        organizationID = grant.organizationID?.uuidString
    }

    func grant() throws -> Grant {
        Grant(
            id: id, accountID: accountID, teamID: TeamID(rawValue: teamID), groupID: ClientID(rawValue: groupID),
            clientID: ClientID(rawValue: clientID), subject: Subject(rawValue: subject),
            scopes: try JSONColumn.decode([Scope].self, from: scopes), email: email, isPrivateEmail: isPrivateEmail,
            realUserStatus: try .decoded(realUserStatus, table: Self.table, column: "real_user_status"),
            authTime: Date(sqlSeconds: authTime), createdAt: Date(sqlSeconds: createdAt),
            revokedAt: revokedAt.map(Date.init(sqlSeconds:)), transferSubject: transferSubject.map(Subject.init(rawValue:)),
            transferWindowEndsAt: transferWindowEndsAt.map(Date.init(sqlSeconds:)),
            organizationID: try organizationID.map { try UUID.decoded($0, table: Self.table, column: "organization_id") }
        )
    }
}

struct CodeRow: Codable, Sendable {
    static let table = "authorization_codes"
    var codeHash: String
    var grantID: String
    var clientID: String
    var redirectURI: String?
    var codeChallenge: String?
    var nonce: String?
    var expiresAt: Double
    var consumedAt: Double?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case nonce
        case codeHash = "code_hash"
        case grantID = "grant_id"
        case clientID = "client_id"
        case redirectURI = "redirect_uri"
        case codeChallenge = "code_challenge"
        case expiresAt = "expires_at"
        case consumedAt = "consumed_at"
    }

    init(_ code: AuthorizationCodeRecord) {
        codeHash = code.codeHash
        grantID = code.grantID
        clientID = code.clientID.rawValue
        redirectURI = code.redirectURI
        codeChallenge = code.codeChallenge
        nonce = code.nonce
        expiresAt = code.expiresAt.sqlSeconds
        consumedAt = code.consumedAt?.sqlSeconds
    }

    func record() -> AuthorizationCodeRecord {
        AuthorizationCodeRecord(
            codeHash: codeHash, grantID: grantID, clientID: ClientID(rawValue: clientID), redirectURI: redirectURI,
            codeChallenge: codeChallenge, nonce: nonce, expiresAt: Date(sqlSeconds: expiresAt),
            consumedAt: consumedAt.map(Date.init(sqlSeconds:))
        )
    }
}

struct TokenRow: Codable, Sendable {
    static let table = "tokens"
    var tokenHash: String
    var kind: String
    var grantID: String
    var clientID: String
    var createdAt: Double
    var expiresAt: Double?

    enum CodingKeys: String, CodingKey {
        case kind
        case tokenHash = "token_hash"
        case grantID = "grant_id"
        case clientID = "client_id"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
    }

    init(_ token: TokenRecord) {
        tokenHash = token.tokenHash
        kind = token.kind.rawValue
        grantID = token.grantID
        clientID = token.clientID.rawValue
        createdAt = token.createdAt.sqlSeconds
        expiresAt = token.expiresAt?.sqlSeconds
    }

    func record() throws -> TokenRecord {
        TokenRecord(
            tokenHash: tokenHash, kind: try .decoded(kind, table: Self.table, column: "kind"), grantID: grantID,
            clientID: ClientID(rawValue: clientID), createdAt: Date(sqlSeconds: createdAt),
            expiresAt: expiresAt.map(Date.init(sqlSeconds:))
        )
    }
}
