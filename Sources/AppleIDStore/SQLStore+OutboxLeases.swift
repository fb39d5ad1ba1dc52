import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore: OutboxLeaseStore {
    /// One statement: `WITH picked AS (SELECT … LIMIT n) UPDATE … WHERE id IN picked … RETURNING *`.
    /// The pick is a common table expression so that it runs once: PostgreSQL may run a plain
    /// `IN (SELECT … LIMIT n)` again for each row and hand out more than `n`. It numbers each group's
    /// due messages by next attempt (`ROW_NUMBER() OVER (PARTITION BY group_id …)`) and takes place 1
    /// of every group before any place 2, at most `perGroup` places. The `UPDATE` repeats the lease
    /// condition: PostgreSQL checks it again on a row another transaction claimed meanwhile (waiting
    /// for that claim to commit), and leaves that row out; SQLite has one writer at a time. (PostgreSQL
    /// allows no `FOR UPDATE SKIP LOCKED` beside a window function; the repeated condition is what
    /// keeps a message from going to two holders.)
    public func leaseDueMessages(at now: Date, holder: String, until expiry: Date, limit: Int, perGroup: Int) async throws -> [OutboxMessage] {
        let claimable: SQLQueryString = """
            delivered_at IS NULL AND abandoned_at IS NULL AND next_attempt_at <= \(bind: now.sqlSeconds) \
            AND (lease_expires_at IS NULL OR lease_expires_at <= \(bind: now.sqlSeconds) OR leased_by = \(bind: holder))
            """
        let claim: SQLQueryString = """
            WITH picked AS (SELECT id FROM (SELECT id, next_attempt_at, \
            ROW_NUMBER() OVER (PARTITION BY group_id ORDER BY next_attempt_at, created_at, id) AS place \
            FROM notification_outbox WHERE \(claimable)) ranked \
            WHERE place <= \(literal: max(0, perGroup)) ORDER BY place, next_attempt_at, id LIMIT \(literal: max(0, limit))) \
            UPDATE notification_outbox SET leased_by = \(bind: holder), lease_expires_at = \(bind: expiry.sqlSeconds) \
            WHERE id IN (SELECT id FROM picked) AND \(claimable) RETURNING *
            """
        return try await db.raw(claim).all(decoding: OutboxRow.self)
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
