import AppleIDProvider
import Foundation

/// How SQLite stores a code's redemption and its tokens in one statement
/// (``SQLStore/redeemCode(hash:binding:at:validAt:issuing:)``).
///
/// SQLite has no data-modifying CTEs, and a transaction of several statements holds the one writer
/// across the trips between them (that cost the token endpoint 7–10% of its rate). One statement is
/// atomic by itself, triggers included: the consuming `UPDATE` also sets `issuing` to the tokens
/// (JSON), and the trigger of migration 31 inserts them under the code's grant and clears `issuing`.
/// When the insert fails (a token hash already taken), the whole `UPDATE` is undone and the code
/// stays redeemable; when the `UPDATE` matches no row, the trigger does not run.
extension SQLStore {
    /// Version 31: the column the `UPDATE` hands the tokens over in (`NULL` at rest), and on SQLite
    /// the trigger, which lives in the file, so every connection and process that writes it has it.
    /// PostgreSQL has the column too (migrations are portable) and never writes it. Only a statement
    /// that sets `issuing` fires the trigger; its own `UPDATE` does not fire it again (recursive
    /// triggers are off).
    static let issuingMigrations: [SchemaMigration] = [
        SchemaMigration(
            version: 31, statements: ["ALTER TABLE authorization_codes ADD COLUMN issuing TEXT"],
            sqliteStatements: [
                """
                CREATE TRIGGER IF NOT EXISTS authorization_codes_issuing \
                AFTER UPDATE OF issuing ON authorization_codes WHEN new.issuing IS NOT NULL \
                BEGIN \
                INSERT INTO tokens (token_hash, kind, grant_id, client_id, created_at, expires_at) \
                SELECT json_extract(issued.value, '$.hash'), json_extract(issued.value, '$.kind'), grants.id, grants.client_id, \
                json_extract(issued.value, '$.created_at'), json_extract(issued.value, '$.expires_at') \
                FROM json_each(new.issuing) AS issued JOIN grants ON grants.id = new.grant_id; \
                UPDATE authorization_codes SET issuing = NULL WHERE code_hash = new.code_hash; \
                END
                """
            ])
    ]
}

/// One token as the consuming `UPDATE` hands it to the trigger.
struct IssuingToken: Encodable {
    let hash: String
    let kind: String
    let created_at: Double
    let expires_at: Double?

    /// `tokens` as the JSON array the trigger reads (times as seconds since 1970, as stored).
    static func json(_ tokens: [NewToken]) throws -> String {
        let issuing = tokens.map {
            IssuingToken(hash: $0.tokenHash, kind: $0.kind.rawValue, created_at: $0.createdAt.sqlSeconds, expires_at: $0.expiresAt?.sqlSeconds)
        }
        return String(decoding: try JSONEncoder().encode(issuing), as: UTF8.self)
    }
}
