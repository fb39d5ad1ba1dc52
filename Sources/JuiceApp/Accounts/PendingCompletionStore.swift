import Foundation
import SQLKit

/// The pending completions table, keyed by the SHA-256 of the one-time token in the completion URL.
struct PendingCompletionStore: Sendable {
    let database: JuiceDatabase
    let clock: @Sendable () -> Date
    /// Long enough to follow one redirect, short enough that a leaked link is soon worthless.
    let lifetime: TimeInterval

    private var sql: any SQLDatabase { database.sql }

    /// Keeps `completion` and returns the token for the completion URL. Expired records go first.
    func save(_ completion: PendingCompletion) async throws -> String {
        let token = SecretToken.random()
        let now = clock().timeIntervalSince1970
        let intent = completion.intent
        try await sql.raw("DELETE FROM pending_completions WHERE expires_at <= \(bind: now)").run()
        try await sql.raw(
            """
            INSERT INTO pending_completions (token_hash, browser_hash, purpose, account_id, next, apple_subject, email, email_verified,
                email_is_private, first_name, last_name, apple_refresh_token, expires_at)
            VALUES (\(bind: SecretToken.hash(token)), \(bind: intent.browserHash), \(bind: intent.purpose.rawValue), \(bind: intent.accountID),
                \(bind: intent.next), \(bind: completion.appleSubject), \(bind: completion.email), \(bind: completion.emailVerified),
                \(bind: completion.emailIsPrivate), \(bind: completion.name?.firstName), \(bind: completion.name?.lastName),
                \(bind: try database.tokens.seal(completion.refreshToken)), \(bind: now + lifetime))
            """
        ).run()
        return token
    }

    /// Takes the completion of `token`: one statement deletes and returns it, so of two requests with
    /// the same token at most one gets it. `nil` when unknown, already used or expired.
    func consume(token: String) async throws -> PendingCompletion? {
        guard case .live(let completion) = try await take(token: token) else { return nil }
        return completion
    }

    /// What a token found: a completion to carry out, one that expired (its Apple authorization
    /// should be revoked), or nothing.
    enum Taken: Sendable {
        case live(PendingCompletion)
        case expired(PendingCompletion)
        case none
    }

    /// ``consume(token:)``, telling an expired completion apart from an unknown one.
    func take(token: String) async throws -> Taken {
        struct Row: Decodable {
            var browserHash: String
            var purpose: String
            var accountId: String?
            var next: String
            var appleSubject: String
            var email: String
            var emailVerified: Bool
            var emailIsPrivate: Bool
            var firstName: String?
            var lastName: String?
            var appleRefreshToken: String?
            var expiresAt: Double
        }
        let row = try await sql.raw("DELETE FROM pending_completions WHERE token_hash = \(bind: SecretToken.hash(token)) RETURNING *")
            .first(decoding: Row.self, keyDecodingStrategy: .convertFromSnakeCase)
        guard let row, let purpose = SignInIntent.Purpose(rawValue: row.purpose) else { return .none }
        let completion = PendingCompletion(
            intent: SignInIntent(purpose: purpose, accountID: row.accountId, next: row.next, browserHash: row.browserHash),
            appleSubject: row.appleSubject, email: row.email, emailVerified: row.emailVerified, emailIsPrivate: row.emailIsPrivate,
            name: row.firstName.map { PendingCompletion.Name(firstName: $0, lastName: row.lastName ?? "") },
            refreshToken: try database.tokens.open(row.appleRefreshToken))
        return row.expiresAt > clock().timeIntervalSince1970 ? .live(completion) : .expired(completion)
    }
}
