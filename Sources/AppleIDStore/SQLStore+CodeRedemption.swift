import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore {
    /// One `UPDATE … RETURNING` on the writer, whose `WHERE` holds every condition of a successful
    /// redemption (so a code that fails one is left as it was), then the grant by its primary key (on
    /// a SQLite reader, or any pooled connection). The grant's columns are not returned by the
    /// `UPDATE` itself: SQLite prepares every statement afresh, and fifteen scalar subqueries cost more
    /// to parse than the second statement costs to run.
    ///
    /// `IS NOT DISTINCT FROM` compares optional columns with absent counting as equal (SQLite ≥ 3.39,
    /// PostgreSQL). Text comparison is byte for byte in both (SQLite's BINARY collation, PostgreSQL's
    /// deterministic ones).
    public func redeemCode(hash: String, binding: CodeBinding, at date: Date, validAt: Date) async throws -> RedeemedCode? {
        let query: SQLQueryString = """
            UPDATE authorization_codes SET consumed_at = \(bind: date.sqlSeconds)
            WHERE code_hash = \(bind: hash) AND consumed_at IS NULL
                AND client_id = \(bind: binding.clientID.rawValue)
                AND redirect_uri IS NOT DISTINCT FROM \(bind: binding.redirectURI)
                AND code_challenge IS NOT DISTINCT FROM \(bind: binding.codeChallenge)
                AND expires_at > \(bind: validAt.sqlSeconds)
                AND EXISTS (SELECT 1 FROM grants WHERE grants.id = authorization_codes.grant_id AND grants.revoked_at IS NULL)
            RETURNING *
            """
        guard let code = try await db.raw(query).first(decoding: CodeRow.self)?.record() else { return nil }
        // The grant was live a moment ago and grants are never deleted; a revocation since then is
        // after this redemption, whose tokens are then dead on arrival (the replay rule).
        guard let grant = try await grant(id: code.grantID) else { throw RedeemedCodeWithoutGrant(grantID: code.grantID) }
        return RedeemedCode(code: code, grant: grant)
    }
}

/// A consumed code whose grant could not be read back: the store is inconsistent.
struct RedeemedCodeWithoutGrant: Error, CustomStringConvertible {
    let grantID: String
    var description: String { "the grant \(grantID) of a redeemed code is missing" }
}
