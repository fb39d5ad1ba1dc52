import Foundation
import SQLKit

/// What a Sign in with Apple round trip is for, kept under the kit's single-use `state`. The kit
/// binds the sign-in to the browser that started it and completes it only there.
struct SignInIntent: Sendable, Hashable {
    enum Purpose: String, Sendable {
        /// Sign in or sign up.
        case signIn = "sign-in"
        /// Switch the password account ``SignInIntent/accountID`` to Sign in with Apple.
        case upgrade
    }

    var purpose: Purpose
    var accountID: String?
    /// The local page to return to.
    var next: String
}

/// The sign-in intents table. Taking an intent deletes it: a replayed callback finds nothing.
struct SignInIntentStore: Sendable {
    let database: JuiceDatabase
    let clock: @Sendable () -> Date
    let lifetime: TimeInterval

    private var sql: any SQLDatabase { database.sql }

    func save(_ intent: SignInIntent, state: String) async throws {
        let now = clock().timeIntervalSince1970
        try await sql.raw("DELETE FROM sign_in_intents WHERE expires_at <= \(bind: now)").run()
        try await sql.raw(
            """
            INSERT INTO sign_in_intents (state_hash, purpose, account_id, next, expires_at)
            VALUES (\(bind: SecretToken.hash(state)), \(bind: intent.purpose.rawValue), \(bind: intent.accountID), \(bind: intent.next),
                \(bind: now + lifetime))
            """
        ).run()
    }

    func take(state: String) async throws -> SignInIntent? {
        struct Row: Decodable {
            var purpose: String
            var accountId: String?
            var next: String
            var expiresAt: Double
        }
        let row = try await sql.raw("DELETE FROM sign_in_intents WHERE state_hash = \(bind: SecretToken.hash(state)) RETURNING *")
            .first(decoding: Row.self, keyDecodingStrategy: .convertFromSnakeCase)
        guard let row, row.expiresAt > clock().timeIntervalSince1970, let purpose = SignInIntent.Purpose(rawValue: row.purpose) else {
            return nil
        }
        return SignInIntent(purpose: purpose, accountID: row.accountId, next: row.next)
    }
}
