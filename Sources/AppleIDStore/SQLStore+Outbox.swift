import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore: OutboxStore {
    public func dueMessages(at now: Date, limit: Int) async throws -> [OutboxMessage] {
        try await db.select().column("*").from(OutboxRow.table)
            .where("delivered_at", .is, SQLLiteral.null)
            .where("abandoned_at", .is, SQLLiteral.null)
            .where("next_attempt_at", .lessThanOrEqual, now.sqlSeconds)
            .orderBy("created_at")
            .limit(limit)
            .all(decoding: OutboxRow.self)
            .map { try $0.message() }
    }

    public func message(id: String) async throws -> OutboxMessage? {
        try await row(OutboxRow.self, from: OutboxRow.table, where: "id", equals: id)?.message()
    }

    public func enqueue(_ message: OutboxMessage) async throws {
        try await Self.write([try OutboxRow(message)], to: db)
    }

    public func messages(groupID: ClientID?, limit: Int) async throws -> [OutboxMessage] {
        var query = db.select().column("*").from(OutboxRow.table)
        if let groupID { query = query.where("group_id", .equal, groupID.rawValue) }
        return try await query.orderBy("created_at", .descending).limit(limit).all(decoding: OutboxRow.self).map { try $0.message() }
    }

    public func outboxUsage(groupID: ClientID, createdSince date: Date) async throws -> OutboxUsage {
        struct Counts: Decodable {
            var pending: Int?
            var recent: Int?
        }
        let pending: SQLQueryString = "delivered_at IS NULL AND abandoned_at IS NULL"
        let recent: SQLQueryString = "created_at >= \(bind: date.sqlSeconds)"
        let counts = try await db.raw(
            """
            SELECT SUM(CASE WHEN \(pending) THEN 1 ELSE 0 END) AS pending, SUM(CASE WHEN \(recent) THEN 1 ELSE 0 END) AS recent \
            FROM notification_outbox WHERE group_id = \(bind: groupID.rawValue) AND (\(pending) OR \(recent))
            """
        ).first(decoding: Counts.self)
        return OutboxUsage(pending: counts?.pending ?? 0, recent: counts?.recent ?? 0)
    }

    public func record(_ attempt: DeliveryAttempt, updating message: OutboxMessage) async throws {
        let row = try OutboxRow(message)
        try await transaction { db in
            try await db.insert(into: AttemptRow.table).model(AttemptRow(attempt), with: Self.rowEncoder).run()
            try await Self.write([row], to: db)
        }
    }

    public func attempts(messageID: String) async throws -> [DeliveryAttempt] {
        try await db.select().column("*").from(AttemptRow.table)
            .where("message_id", .equal, messageID)
            .orderBy("attempted_at")
            .all(decoding: AttemptRow.self)
            .map { $0.attempt() }
    }

    public func messages(groupID: ClientID, after cursor: OutboxCursor?, limit: Int) async throws -> [OutboxMessage] {
        var query = db.select().column("*").from(OutboxRow.table).where("group_id", .equal, groupID.rawValue)
        if let cursor {
            query = query.where { position in
                position.where("created_at", .greaterThan, cursor.createdAt.sqlSeconds)
                    .orWhere { same in
                        same.where("created_at", .equal, cursor.createdAt.sqlSeconds).where("id", .greaterThan, cursor.messageID)
                    }
            }
        }
        return try await query.orderBy("created_at").orderBy("id").limit(limit).all(decoding: OutboxRow.self).map { try $0.message() }
    }

    /// Inserts or replaces outbox rows on `db` (the transaction's connection), up to
    /// ``rowsPerInsert`` per statement: an organization's withdrawal writes one per member.
    static func write(_ rows: [OutboxRow], to db: any SQLDatabase) async throws {
        for start in stride(from: 0, to: rows.count, by: rowsPerInsert) {
            let batch = Array(rows[start..<min(start + rowsPerInsert, rows.count)])
            try await db.insert(into: OutboxRow.table)
                .models(batch, with: rowEncoder)
                .onConflict(with: ["id"]) { try $0.set(excludedContentOf: batch[0], with: rowEncoder) }
                .run()
        }
    }

    /// Rows of one `INSERT`: their binds stay far below SQLite's limit of 32,766 (PostgreSQL's: 65,535).
    static let rowsPerInsert = 200
}

struct OutboxRow: Codable, Sendable {
    static let table = "notification_outbox"
    var id: String
    var groupID: String
    var audience: String
    /// The event as JSON.
    var event: String
    var createdAt: Double
    var nextAttemptAt: Double
    var attempts: Int
    var deliveredAt: Double?
    var abandonedAt: Double?

    enum CodingKeys: String, CodingKey {
        case id, audience, event, attempts
        case groupID = "group_id"
        case createdAt = "created_at"
        case nextAttemptAt = "next_attempt_at"
        case deliveredAt = "delivered_at"
        case abandonedAt = "abandoned_at"
    }

    init(_ message: OutboxMessage) throws {
        id = message.id
        groupID = message.groupID.rawValue
        audience = message.audience.rawValue
        event = try JSONColumn.encode(message.event)
        createdAt = message.createdAt.sqlSeconds
        nextAttemptAt = message.nextAttemptAt.sqlSeconds
        attempts = message.attempts
        deliveredAt = message.deliveredAt?.sqlSeconds
        abandonedAt = message.abandonedAt?.sqlSeconds
    }

    func message() throws -> OutboxMessage {
        OutboxMessage(
            id: id, groupID: ClientID(rawValue: groupID), audience: ClientID(rawValue: audience),
            event: try JSONColumn.decode(NotificationEvent.self, from: event), createdAt: Date(sqlSeconds: createdAt),
            nextAttemptAt: Date(sqlSeconds: nextAttemptAt), attempts: attempts, deliveredAt: deliveredAt.map(Date.init(sqlSeconds:)),
            abandonedAt: abandonedAt.map(Date.init(sqlSeconds:)))
    }
}

struct AttemptRow: Codable, Sendable {
    static let table = "delivery_attempts"
    var messageID: String
    var attemptedAt: Double
    var status: Int?
    var latencyMilliseconds: Int
    var error: String?
    var endpoint: String

    enum CodingKeys: String, CodingKey {
        case status, error, endpoint
        case messageID = "message_id"
        case attemptedAt = "attempted_at"
        case latencyMilliseconds = "latency_ms"
    }

    init(_ attempt: DeliveryAttempt) {
        messageID = attempt.messageID
        attemptedAt = attempt.attemptedAt.sqlSeconds
        status = attempt.status
        latencyMilliseconds = attempt.latencyMilliseconds
        error = attempt.error
        endpoint = attempt.endpoint
    }

    func attempt() -> DeliveryAttempt {
        DeliveryAttempt(
            messageID: messageID, attemptedAt: Date(sqlSeconds: attemptedAt), status: status, latencyMilliseconds: latencyMilliseconds,
            error: error, endpoint: endpoint)
    }
}
