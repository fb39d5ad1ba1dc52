import Foundation
import SQLKit

/// Juice sessions: the browser holds a random token, the table holds its SHA-256.
struct SessionStore: Sendable {
    let database: JuiceDatabase
    let clock: @Sendable () -> Date
    let lifetime: TimeInterval

    private var sql: any SQLDatabase { database.sql }

    /// Starts a session and returns the token for the cookie.
    func start(accountID: String) async throws -> String {
        let token = SecretToken.random()
        let now = clock()
        try await sql.raw(
            """
            INSERT INTO sessions (id_hash, account_id, expires_at, started_at)
            VALUES (
                \(bind: SecretToken.hash(token)), \(bind: accountID), \(bind: now.addingTimeInterval(lifetime).timeIntervalSince1970),
                \(bind: now.timeIntervalSince1970))
            """
        ).run()
        return token
    }

    /// The account of a live session.
    func account(token: String) async throws -> Account? {
        try await sql.raw(
            """
            SELECT accounts.* FROM sessions JOIN accounts ON accounts.id = sessions.account_id
            WHERE sessions.id_hash = \(bind: SecretToken.hash(token)) AND sessions.expires_at > \(bind: clock().timeIntervalSince1970)
            """
        ).first(decoding: Account.self, keyDecodingStrategy: .convertFromSnakeCase).map(database.tokens.opened)
    }

    func end(token: String) async throws {
        try await sql.raw("DELETE FROM sessions WHERE id_hash = \(bind: SecretToken.hash(token))").run()
    }

    /// Ends every session of the account at once (Apple said the credential is gone).
    func endAll(accountID: String) async throws {
        try await sql.raw("DELETE FROM sessions WHERE account_id = \(bind: accountID)").run()
    }

    /// Ends the account's sessions whose start `applies` to (an event that speaks about sign-ins
    /// begun before it: see `NotificationEvent.appliesToSignIn(begunAt:)`).
    func end(accountID: String, where applies: (Date) -> Bool) async throws {
        struct Row: Decodable {
            var id_hash: String
            var started_at: Double
        }
        let rows = try await sql.raw("SELECT id_hash, started_at FROM sessions WHERE account_id = \(bind: accountID)").all(decoding: Row.self)
        for row in rows where applies(Date(timeIntervalSince1970: row.started_at)) {
            try await sql.raw("DELETE FROM sessions WHERE id_hash = \(bind: row.id_hash)").run()
        }
    }

    func count(accountID: String) async throws -> Int {
        try await sql.raw("SELECT COUNT(*) AS n FROM sessions WHERE account_id = \(bind: accountID)").first(decodingColumn: "n", as: Int.self)
            ?? 0
    }
}
