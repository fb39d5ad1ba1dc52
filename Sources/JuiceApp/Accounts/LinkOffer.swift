import Foundation
import SQLKit

/// An Apple sign-in waiting for the password of the existing account with the same verified e-mail.
struct LinkOffer: Sendable, Hashable, Decodable {
    var accountId: String
    var appleSubject: String
    var appleRefreshToken: String?
    var firstName: String
    var lastName: String
    var next: String
    var expiresAt: Double
}

/// The pending links table, keyed by the hash of a token kept in the browser's `juice_link` cookie.
struct LinkOfferStore: Sendable {
    let database: JuiceDatabase
    let clock: @Sendable () -> Date
    let lifetime: TimeInterval

    private var sql: any SQLDatabase { database.sql }

    /// Saves the offer and returns the token for the cookie.
    func save(_ offer: LinkOffer) async throws -> String {
        let token = SecretToken.random()
        try await sql.raw(
            """
            INSERT INTO pending_links (id_hash, account_id, apple_subject, apple_refresh_token, first_name, last_name, next, expires_at)
            VALUES (\(bind: SecretToken.hash(token)), \(bind: offer.accountId), \(bind: offer.appleSubject), \(bind: try database.tokens.seal(offer.appleRefreshToken)),
                \(bind: offer.firstName), \(bind: offer.lastName), \(bind: offer.next), \(bind: clock().addingTimeInterval(lifetime).timeIntervalSince1970))
            """
        ).run()
        return token
    }

    func offer(token: String) async throws -> LinkOffer? {
        try await sql.raw(
            """
            SELECT * FROM pending_links
            WHERE id_hash = \(bind: SecretToken.hash(token)) AND expires_at > \(bind: clock().timeIntervalSince1970)
            """
        ).first(decoding: LinkOffer.self, keyDecodingStrategy: .convertFromSnakeCase).map { offer in
            var opened = offer
            opened.appleRefreshToken = try database.tokens.open(offer.appleRefreshToken)
            return opened
        }
    }

    func remove(token: String) async throws {
        try await sql.raw("DELETE FROM pending_links WHERE id_hash = \(bind: SecretToken.hash(token))").run()
    }
}
