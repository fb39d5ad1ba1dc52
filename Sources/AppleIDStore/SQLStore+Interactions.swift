import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore: InteractionStore {
    public func save(_ interaction: Interaction) async throws {
        try await upsert(try InteractionRow(interaction), into: InteractionRow.table, key: ["id"])
    }

    public func interaction(id: String) async throws -> Interaction? {
        try await row(InteractionRow.self, from: InteractionRow.table, where: "id", equals: id)?.interaction()
    }

    public func deleteInteraction(id: String) async throws {
        try await delete(from: InteractionRow.table, where: "id", equals: id)
    }

    /// One `DELETE … RETURNING *` (SQLite ≥ 3.35, PostgreSQL), as codes are consumed: of
    /// concurrent approvals of one page exactly one gets the row back.
    public func takeInteraction(id: String) async throws -> Interaction? {
        try await db.delete(from: InteractionRow.table)
            .where("id", .equal, id)
            .returning(SQLLiteral.all)
            .first(decoding: InteractionRow.self)?
            .interaction()
    }

    /// One `UPDATE … SET failed_attempts = failed_attempts + 1 … RETURNING`: no lost increments.
    public func recordFailedAttempt(interactionID: String) async throws -> Int? {
        try await db.update(InteractionRow.table)
            .set(SQLIdentifier("failed_attempts"), to: SQLBinaryExpression(SQLIdentifier("failed_attempts"), .add, SQLLiteral.numeric("1")))
            .where("id", .equal, interactionID)
            .returning("failed_attempts")
            .first()?
            .decode(column: "failed_attempts", as: Int.self)
    }

    public func save(_ session: BrowserSession) async throws {
        try await upsert(BrowserSessionRow(session), into: BrowserSessionRow.table, key: ["id_hash"])
    }

    public func browserSession(idHash: String) async throws -> BrowserSession? {
        try await row(BrowserSessionRow.self, from: BrowserSessionRow.table, where: "id_hash", equals: idHash)?.session()
    }

    public func deleteBrowserSession(idHash: String) async throws {
        try await delete(from: BrowserSessionRow.table, where: "id_hash", equals: idHash)
    }
}

struct InteractionRow: Codable, Sendable {
    static let table = "interactions"
    var id: String
    /// JSON object (``ValidatedAuthorization``).
    var request: String
    var browserBindingHash: String
    var csrfToken: String
    var stage: String
    var accountID: String?
    var authTime: Double?
    var failedAttempts: Int
    var createdAt: Double
    var expiresAt: Double

    enum CodingKeys: String, CodingKey {
        case id, request, stage
        case browserBindingHash = "browser_binding_hash"
        case csrfToken = "csrf_token"
        case accountID = "account_id"
        case authTime = "auth_time"
        case failedAttempts = "failed_attempts"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
    }

    init(_ interaction: Interaction) throws {
        id = interaction.id
        request = try JSONColumn.encode(interaction.request)
        browserBindingHash = interaction.browserBindingHash
        csrfToken = interaction.csrfToken
        stage = interaction.stage.rawValue
        accountID = interaction.accountID
        authTime = interaction.authTime?.sqlSeconds
        failedAttempts = interaction.failedAttempts
        createdAt = interaction.createdAt.sqlSeconds
        expiresAt = interaction.expiresAt.sqlSeconds
    }

    func interaction() throws -> Interaction {
        Interaction(
            id: id, request: try JSONColumn.decode(ValidatedAuthorization.self, from: request),
            browserBindingHash: browserBindingHash, csrfToken: csrfToken,
            stage: try .decoded(stage, table: Self.table, column: "stage"), accountID: accountID,
            authTime: authTime.map(Date.init(sqlSeconds:)), failedAttempts: failedAttempts,
            createdAt: Date(sqlSeconds: createdAt), expiresAt: Date(sqlSeconds: expiresAt)
        )
    }
}

struct BrowserSessionRow: Codable, Sendable {
    static let table = "browser_sessions"
    var idHash: String
    var accountID: String
    var authTime: Double
    var expiresAt: Double
    /// ``BrowserSession/Purpose``'s raw value (migration 24).
    var purpose: String

    enum CodingKeys: String, CodingKey {
        case idHash = "id_hash"
        case accountID = "account_id"
        case authTime = "auth_time"
        case expiresAt = "expires_at"
        case purpose
    }

    init(_ session: BrowserSession) {
        idHash = session.idHash
        accountID = session.accountID
        authTime = session.authTime.sqlSeconds
        expiresAt = session.expiresAt.sqlSeconds
        purpose = session.purpose.rawValue
    }

    func session() throws -> BrowserSession {
        BrowserSession(
            idHash: idHash, accountID: accountID, authTime: Date(sqlSeconds: authTime), expiresAt: Date(sqlSeconds: expiresAt),
            purpose: try .decoded(purpose, table: Self.table, column: "purpose"))
    }
}
