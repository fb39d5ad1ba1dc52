import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore {
    /// The code consumed, its grant read and the exchange's tokens inserted, as one unit: one
    /// statement, so a failed insert leaves the code unconsumed and the client's retry finds it so,
    /// instead of taking it for a replay. The consuming `UPDATE` holds every condition in its `WHERE`.
    /// On PostgreSQL the tokens' `INSERT` is a data-modifying CTE of that statement, which also
    /// reads the grant. On SQLite, which has no such CTEs, the `UPDATE` writes the tokens into the
    /// code's `issuing` column and a trigger (migration 31, ``issuingMigrations``) moves them into
    /// `tokens` inside the same statement; the grant is read by a second statement handed to the writer
    /// with the first (``GatedConnection/inSequence(_:)``).
    ///
    /// `IS NOT DISTINCT FROM` compares optional columns with absent counting as equal (SQLite ≥ 3.39,
    /// PostgreSQL). Text comparison is byte for byte in both (SQLite's BINARY collation, PostgreSQL's
    /// deterministic ones).
    public func redeemCode(
        hash: String, binding: CodeBinding, at date: Date, validAt: Date, issuing tokens: [NewToken]
    ) async throws -> RedeemedCode? {
        if db.dialect.name == "postgresql" {
            let consumption = Self.consumption(hash: hash, binding: binding, at: date, validAt: validAt, issuing: nil)
            // A data-modifying CTE runs whether or not the query reads it, on the statement's snapshot.
            let issuing: SQLQueryString =
                tokens.isEmpty ? "" : ", issued AS (\(Self.tokenInsert(tokens, underGrant: "(SELECT grant_id FROM redeemed)")))"
            let query: SQLQueryString = """
                WITH redeemed AS (\(consumption))\(issuing) \
                SELECT \(Self.redeemedColumns), grants.* FROM redeemed JOIN grants ON grants.id = redeemed.grant_id
                """
            guard let row = try await prepared.raw(query).first() else { return nil }
            return RedeemedCode(
                code: try row.decode(model: CodeRow.self, prefix: Self.redeemedPrefix).record(), grant: try row.decode(model: GrantRow.self).grant())
        }
        let issuing = tokens.isEmpty ? nil : try IssuingToken.json(tokens)
        let consumption = Self.consumption(hash: hash, binding: binding, at: date, validAt: validAt, issuing: issuing)
        // The code's grant is read right behind the `UPDATE`, in the same hand-over to the writer (one
        // wait for both, issue 38); it is read whether or not the code was redeemed, and used only if it was.
        let answers = try await connections.inSequence([consumption, Self.grantOfCode(hash: hash)])
        guard let row = answers[0].first else { return nil }
        let code = try row.decode(model: CodeRow.self).record()
        // The grant was live in the `UPDATE`'s `WHERE`, and grants are never deleted.
        guard let grant = try answers[1].first?.decode(model: GrantRow.self).grant() else { throw RedeemedCodeWithoutGrant(grantID: code.grantID) }
        return RedeemedCode(code: code, grant: grant)
    }

    /// `UPDATE … RETURNING *` of the code, whose `WHERE` holds every condition of a successful
    /// redemption, so a code that fails one is left as it was (and the caller reads it to tell why).
    /// With `issuing` (SQLite), also the tokens for the trigger to insert.
    static func consumption(hash: String, binding: CodeBinding, at date: Date, validAt: Date, issuing: String?) -> SQLQueryString {
        let handingOver: SQLQueryString = issuing.map { ", issuing = \(bind: $0)" } ?? ""
        return """
            UPDATE authorization_codes SET consumed_at = \(bind: date.sqlSeconds)\(handingOver) \
            WHERE code_hash = \(bind: hash) AND consumed_at IS NULL \
            AND client_id = \(bind: binding.clientID.rawValue) \
            AND redirect_uri IS NOT DISTINCT FROM \(bind: binding.redirectURI) \
            AND code_challenge IS NOT DISTINCT FROM \(bind: binding.codeChallenge) \
            AND expires_at > \(bind: validAt.sqlSeconds) \
            AND EXISTS (SELECT 1 FROM grants WHERE grants.id = authorization_codes.grant_id AND grants.revoked_at IS NULL) \
            RETURNING *
            """
    }

    /// The grant of the code whose hash is `hash`, for SQLite's redemption.
    static func grantOfCode(hash: String) -> SQLQueryString {
        "SELECT * FROM \(ident: GrantRow.table) WHERE id = (SELECT grant_id FROM authorization_codes WHERE code_hash = \(bind: hash))"
    }

    /// `INSERT … SELECT` of `tokens` under the grant whose id is `grantID` (an expression), with that
    /// grant's client, for PostgreSQL's redemption: nothing is inserted when there is no such grant.
    /// One `SELECT` per token, each finding the grant by its key; the expiry is cast because a `NULL`
    /// alone has no type in PostgreSQL.
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
