import Foundation
import SQLKit

/// The accounts table. Every method is one statement.
struct AccountStore: Sendable {
    let database: JuiceDatabase
    let clock: @Sendable () -> Date

    private var sql: any SQLDatabase { database.sql }

    func create(_ new: NewAccount) async throws -> Account {
        let id = UUID().uuidString.lowercased()
        try await sql.raw(
            """
            INSERT INTO accounts (id, email, email_verified, email_is_private, email_forwarding, first_name, last_name,
                password_hash, apple_subject, apple_refresh_token, created_at)
            VALUES (\(bind: id), \(bind: new.email.lowercased()), \(bind: new.emailVerified), \(bind: new.emailIsPrivate), 1,
                \(bind: new.firstName), \(bind: new.lastName), \(bind: new.passwordHash), \(bind: new.appleSubject),
                \(bind: try database.tokens.seal(new.appleRefreshToken)), \(bind: clock().timeIntervalSince1970))
            """
        ).run()
        guard let account = try await account(id: id) else { throw JuiceError.accountVanished }
        return account
    }

    func account(id: String) async throws -> Account? {
        try await sql.raw("SELECT * FROM accounts WHERE id = \(bind: id)").first(decoding: Account.self, keyDecodingStrategy: .convertFromSnakeCase)
            .map(database.tokens.opened)
    }

    func account(appleSubject: String) async throws -> Account? {
        try await sql.raw("SELECT * FROM accounts WHERE apple_subject = \(bind: appleSubject)")
            .first(decoding: Account.self, keyDecodingStrategy: .convertFromSnakeCase).map(database.tokens.opened)
    }

    /// The password account of an e-mail address (the one Juice offers to link).
    func passwordAccount(email: String) async throws -> Account? {
        try await sql.raw(
            "SELECT * FROM accounts WHERE email = \(bind: email.lowercased()) AND password_hash IS NOT NULL ORDER BY created_at LIMIT 1"
        ).first(decoding: Account.self, keyDecodingStrategy: .convertFromSnakeCase).map(database.tokens.opened)
    }

    func emailIsTaken(_ email: String) async throws -> Bool {
        try await sql.raw("SELECT id FROM accounts WHERE email = \(bind: email.lowercased()) LIMIT 1").first() != nil
    }

    /// Attaches an Apple user to an account that has none; with `removePassword`, the account signs in
    /// only with Apple from now on (the upgrade). A name the account lacks is filled in.
    func attachApple(
        accountID: String, subject: String, refreshToken: String?, removePassword: Bool, firstName: String = "", lastName: String = ""
    ) async throws {
        try await sql.raw(
            """
            UPDATE accounts SET apple_subject = \(bind: subject),
                apple_refresh_token = COALESCE(\(bind: try database.tokens.seal(refreshToken)), apple_refresh_token),
                password_hash = CASE WHEN \(bind: removePassword) THEN NULL ELSE password_hash END,
                first_name = CASE WHEN first_name = '' THEN \(bind: firstName) ELSE first_name END,
                last_name = CASE WHEN last_name = '' THEN \(bind: lastName) ELSE last_name END
            WHERE id = \(bind: accountID) AND apple_subject IS NULL
            """
        ).run()
    }

    func updateRefreshToken(accountID: String, _ token: String) async throws {
        try await sql.raw("UPDATE accounts SET apple_refresh_token = \(bind: try database.tokens.seal(token)) WHERE id = \(bind: accountID)").run()
    }

    func setName(accountID: String, firstName: String, lastName: String) async throws {
        try await sql.raw(
            "UPDATE accounts SET first_name = \(bind: firstName), last_name = \(bind: lastName) WHERE id = \(bind: accountID)"
        ).run()
    }

    func setEmailForwarding(appleSubject: String, enabled: Bool) async throws {
        try await sql.raw("UPDATE accounts SET email_forwarding = \(bind: enabled) WHERE apple_subject = \(bind: appleSubject)").run()
    }

    /// The Apple ID is gone: the account keeps its data but can no longer sign in with Apple.
    func detachApple(subject: String) async throws {
        try await sql.raw("UPDATE accounts SET apple_subject = NULL, apple_refresh_token = NULL WHERE apple_subject = \(bind: subject)")
            .run()
    }

    /// Deletes the account; its sessions, orders, intents and link offers go with it (cascade).
    func delete(id: String) async throws {
        try await sql.raw("DELETE FROM accounts WHERE id = \(bind: id)").run()
    }

    /// Deletes accounts of `subject` that have no other way to sign in.
    func deleteAppleOnlyAccount(subject: String) async throws {
        try await sql.raw("DELETE FROM accounts WHERE apple_subject = \(bind: subject) AND password_hash IS NULL").run()
    }
}
