import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore {
    /// The code consumed, its grant read and the exchange's tokens inserted, as one unit: on
    /// PostgreSQL one statement (one round trip) whose data-modifying CTEs share one snapshot; on
    /// SQLite one transaction on the writer whose statements are sent together. Both run the same three pieces of SQL: the consuming
    /// `UPDATE`, the grant by its key, the tokens' `INSERT … SELECT`. A failed insert rolls the
    /// consumption back, so the client's retry finds the code unconsumed instead of taking it for a
    /// replay.
    ///
    /// `IS NOT DISTINCT FROM` compares optional columns with absent counting as equal (SQLite ≥ 3.39,
    /// PostgreSQL). Text comparison is byte for byte in both (SQLite's BINARY collation, PostgreSQL's
    /// deterministic ones).
    public func redeemCode(
        hash: String, binding: CodeBinding, at date: Date, validAt: Date, issuing tokens: [NewToken]
    ) async throws -> RedeemedCode? {
        let consumption = Self.consumption(hash: hash, binding: binding, at: date, validAt: validAt)
        if db.dialect.name == "postgresql" {
            // A data-modifying CTE runs whether or not the query reads it, on the statement's snapshot.
            let issuing: SQLQueryString =
                tokens.isEmpty ? "" : ", issued AS (\(Self.tokenInsert(tokens, underGrant: "(SELECT grant_id FROM redeemed)")))"
            let query: SQLQueryString = """
                WITH redeemed AS (\(consumption))\(issuing) \
                SELECT \(Self.redeemedColumns), grants.* FROM redeemed JOIN grants ON grants.id = redeemed.grant_id
                """
            guard let row = try await db.raw(query).first() else { return nil }
            return RedeemedCode(
                code: try row.decode(model: CodeRow.self, prefix: Self.redeemedPrefix).record(), grant: try row.decode(model: GrantRow.self).grant())
        }
        // SQLite: the three statements sent at once (``SQLConnectionSource/transaction(pipelining:)``).
        // The grant and the tokens follow the code through SQL: the tokens only when the `UPDATE`
        // just changed one row (`changes()`, this connection's last `UPDATE`, as nothing else runs
        // on the writer meanwhile), so a code that fails a condition issues nothing.
        let grantOfCode: SQLQueryString = "(SELECT grant_id FROM authorization_codes WHERE code_hash = \(bind: hash) AND changes() = 1)"
        var statements: [SQLQueryString] = [consumption, "SELECT * FROM grants WHERE id = \(grantOfCode)"]
        if !tokens.isEmpty { statements.append(Self.tokenInsert(tokens, underGrant: grantOfCode)) }
        let answers = try await connections.transaction(pipelining: statements)
        guard let codeRow = answers[0].first else { return nil }
        let code = try codeRow.decode(model: CodeRow.self).record()
        // The grant was live in the `UPDATE`'s `WHERE`, in this transaction, and grants are never deleted.
        guard let grant = try answers[1].first?.decode(model: GrantRow.self).grant() else { throw RedeemedCodeWithoutGrant(grantID: code.grantID) }
        return RedeemedCode(code: code, grant: grant)
    }

    /// `UPDATE … RETURNING *` of the code, whose `WHERE` holds every condition of a successful
    /// redemption, so a code that fails one is left as it was (and the caller reads it to tell why).
    static func consumption(hash: String, binding: CodeBinding, at date: Date, validAt: Date) -> SQLQueryString {
        """
        UPDATE authorization_codes SET consumed_at = \(bind: date.sqlSeconds) \
        WHERE code_hash = \(bind: hash) AND consumed_at IS NULL \
        AND client_id = \(bind: binding.clientID.rawValue) \
        AND redirect_uri IS NOT DISTINCT FROM \(bind: binding.redirectURI) \
        AND code_challenge IS NOT DISTINCT FROM \(bind: binding.codeChallenge) \
        AND expires_at > \(bind: validAt.sqlSeconds) \
        AND EXISTS (SELECT 1 FROM grants WHERE grants.id = authorization_codes.grant_id AND grants.revoked_at IS NULL) \
        RETURNING *
        """
    }

    /// `INSERT … SELECT` of `tokens` under the grant whose id is `grantID` (an expression), with that
    /// grant's client: nothing is inserted when there is no such grant. One `SELECT` per token, each
    /// finding the grant by its key; the expiry is cast because a `NULL` alone has no type in
    /// PostgreSQL.
    static func tokenInsert(_ tokens: [NewToken], underGrant grantID: SQLQueryString) -> SQLQueryString {
        var query: SQLQueryString = "INSERT INTO tokens (token_hash, kind, grant_id, client_id, created_at, expires_at) "
        for (index, token) in tokens.enumerated() {
            query += index == 0 ? "" : " UNION ALL "
            query += """
                SELECT \(bind: token.tokenHash), \(bind: token.kind.rawValue), id, client_id, \(bind: token.createdAt.sqlSeconds), \
                CAST(\(bind: token.expiresAt?.sqlSeconds) AS DOUBLE PRECISION) FROM grants WHERE id = \(grantID)
                """
        }
        return query
    }

    /// The consumed code's columns in the PostgreSQL statement's answer, renamed apart from the
    /// grant's (both have `client_id`).
    static let redeemedPrefix = "redeemed_"
    static let redeemedColumns: SQLQueryString = CodeRow.CodingKeys.allCases.enumerated().reduce(into: "") { list, column in
        list += column.offset == 0 ? "" : ", "
        list += "redeemed.\(ident: column.element.rawValue) AS \(ident: SQLStore.redeemedPrefix + column.element.rawValue)"
    }
}

/// A consumed code whose grant could not be read back: the store is inconsistent.
struct RedeemedCodeWithoutGrant: Error, CustomStringConvertible {
    let grantID: String
    var description: String { "the grant \(grantID) of a redeemed code is missing" }
}
