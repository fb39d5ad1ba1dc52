import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore: OutboxLeaseStore {
    /// One statement: `WITH picked AS (SELECT … LIMIT n) UPDATE … WHERE id IN picked … RETURNING *`.
    /// The pick is a common table expression so that it runs once: PostgreSQL may run a plain
    /// `IN (SELECT … LIMIT n)` again for each row and hand out more than `n`. A derived table numbers
    /// each group's due messages by next attempt (`ROW_NUMBER() OVER (PARTITION BY group_id …)`), and
    /// the pick takes place 1 of every group before any place 2, at most `perGroup` places. On
    /// PostgreSQL the pick locks what it takes with `FOR UPDATE OF o SKIP LOCKED` (allowed at the outer
    /// level, which has no window function), so concurrent holders take different messages instead
    /// of losing the ones another holder is claiming; the `UPDATE` repeats the lease condition as well.
    /// SQLite has one writer at a time.
    ///
    /// The numbering sees rows that a concurrent holder is claiming, so on PostgreSQL concurrent fair
    /// claims can come back short (a skipped row is not replaced by one of a later place); the rest
    /// is claimed by the next pass. Without a bound per group (`perGroup >= limit`) the pick is plain
    /// `ORDER BY … LIMIT n FOR UPDATE SKIP LOCKED`, and concurrent holders share every due message.
    public func leaseDueMessages(at now: Date, holder: String, until expiry: Date, limit: Int, perGroup: Int) async throws -> [OutboxMessage] {
        let claimable: SQLQueryString = """
            delivered_at IS NULL AND abandoned_at IS NULL AND next_attempt_at <= \(bind: now.sqlSeconds) \
            AND (lease_expires_at IS NULL OR lease_expires_at <= \(bind: now.sqlSeconds) OR leased_by = \(bind: holder))
            """
        let postgres = db.dialect.name == "postgresql"
        guard perGroup < limit else {
            let skipLocked: SQLQueryString = postgres ? " FOR UPDATE SKIP LOCKED" : ""
            let pick: SQLQueryString = """
                SELECT id FROM notification_outbox WHERE \(claimable) \
                ORDER BY next_attempt_at, created_at, id LIMIT \(literal: max(0, limit))\(skipLocked)
                """
            return try await claim(
                Self.leaseStatement(table: OutboxRow.table, key: "id", pick: pick, claimable: claimable, holder: holder, until: expiry))
        }
        let skipLocked: SQLQueryString = postgres ? " FOR UPDATE OF o SKIP LOCKED" : ""
        let pick: SQLQueryString = """
            SELECT o.id FROM notification_outbox o JOIN (SELECT id, next_attempt_at, \
            ROW_NUMBER() OVER (PARTITION BY group_id ORDER BY next_attempt_at, created_at, id) AS place \
            FROM notification_outbox WHERE \(claimable)) ranked ON ranked.id = o.id \
            WHERE ranked.place <= \(literal: max(0, perGroup)) ORDER BY ranked.place, ranked.next_attempt_at, o.id \
            LIMIT \(literal: max(0, limit))\(skipLocked)
            """
        return try await claim(
            Self.leaseStatement(table: OutboxRow.table, key: "id", pick: pick, claimable: claimable, holder: holder, until: expiry))
    }

    /// The one shape of every lease (outbox messages, organization withdrawals): `WITH picked AS
    /// (pick) UPDATE table SET leased_by, lease_expires_at WHERE key IN picked AND claimable
    /// RETURNING *`. The pick is a common table expression so that it runs once (see above); the
    /// `UPDATE` repeats `claimable`, so a row another holder took meanwhile is not taken again.
    static func leaseStatement(
        table: String, key: String, pick: SQLQueryString, claimable: SQLQueryString, holder: String, until expiry: Date
    ) -> SQLQueryString {
        """
        WITH picked AS (\(pick)) \
        UPDATE \(ident: table) SET leased_by = \(bind: holder), lease_expires_at = \(bind: expiry.sqlSeconds) \
        WHERE \(ident: key) IN (SELECT \(ident: key) FROM picked) AND \(claimable) RETURNING *
        """
    }

    /// A row nobody holds, or whose lease ran out (its holder died or hangs).
    static func leaseIsFree(at now: Date) -> SQLQueryString {
        "(lease_expires_at IS NULL OR lease_expires_at <= \(bind: now.sqlSeconds))"
    }

    /// Runs a claiming statement; its messages in the order they were created.
    private func claim(_ statement: SQLQueryString) async throws -> [OutboxMessage] {
        try await db.raw(statement).all(decoding: OutboxRow.self)
            .map { try $0.message() }
            .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    @discardableResult
    public func releaseLeases(holder: String) async throws -> Int {
        try await releaseLeases(holder: holder, only: nil)
    }

    @discardableResult
    public func releaseLeases(holder: String, messageIDs: [String]) async throws -> Int {
        messageIDs.isEmpty ? 0 : try await releaseLeases(holder: holder, only: messageIDs)
    }

    private func releaseLeases(holder: String, only messageIDs: [String]?) async throws -> Int {
        let update = db.update(OutboxRow.table)
            .set("leased_by", to: SQLLiteral.null)
            .set("lease_expires_at", to: SQLLiteral.null)
            .where("leased_by", .equal, holder)
        if let messageIDs { update.where("id", .in, messageIDs) }
        return try await update.returning("id").all().count
    }
}
