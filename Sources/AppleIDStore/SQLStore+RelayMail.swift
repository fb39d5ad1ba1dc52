import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore: RelayMailStore {
    public func teamIdentity(relayAddress: String) async throws -> TeamIdentity? {
        try await row(TeamIdentityRow.self, from: TeamIdentityRow.table, where: "relay_address", equals: relayAddress)?.identity()
    }

    public func replyAlias(_ alias: String) async throws -> RelayReplyAlias? {
        try await row(RelayReplyAliasRow.self, from: RelayReplyAliasRow.table, where: "alias", equals: alias)?.replyAlias()
    }

    /// `INSERT … ON CONFLICT DO NOTHING`, then read back whichever row won.
    public func insertReplyAlias(_ alias: RelayReplyAlias) async throws -> RelayReplyAlias {
        try await db.insert(into: RelayReplyAliasRow.table).model(RelayReplyAliasRow(alias), with: Self.rowEncoder).ignoringConflicts().run()
        let stored = try await db.select().column("*").from(RelayReplyAliasRow.table)
            .where("relay_address", .equal, alias.relayAddress)
            .where("sender", .equal, alias.sender)
            .first(decoding: RelayReplyAliasRow.self)
        guard let stored else { throw StoreError.conflict("reply alias \(alias.alias) is taken") }
        return stored.replyAlias()
    }

    public func relayMessageCount(relayAddress: String, since date: Date) async throws -> Int {
        try await Self.relayMessageCount(relayAddress: relayAddress, since: date, on: db)
    }

    static func relayMessageCount(relayAddress: String, since date: Date, on db: any SQLDatabase) async throws -> Int {
        let row = try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count").from(RelayMessageRow.table)
            .where("relay_address", .equal, relayAddress)
            .where("received_at", .greaterThan, date.sqlSeconds)
            .where("direction", .notEqual, RelayMessage.Direction.bounce.rawValue)
            .first()
        return try row?.decode(column: "count", as: Int.self) ?? 0
    }

    /// Counts and writes in one transaction. SQLite has one writer, so its transactions already take
    /// turns. PostgreSQL's read-committed transactions would both count before either writes, so each
    /// first locks its relay addresses (transaction-scoped advisory locks, in one order so that two
    /// batches cannot wait for each other): a second session counts what the first wrote.
    public func accept(_ mail: [AcceptedRelayMail], limit: RelayDailyLimit?) async throws -> Bool {
        try await transaction { db in
            if let limit {
                let counted = RelayDailyLimit.counted(mail)
                for (address, count) in counted.sorted(by: { $0.key < $1.key }) {
                    if db.dialect.name == "postgresql" {
                        try await db.raw("SELECT pg_advisory_xact_lock(hashtext(\(bind: "relay_daily:" + address)))").run()
                    }
                    let taken = try await Self.relayMessageCount(relayAddress: address, since: limit.since, on: db)
                    if taken + count > limit.count { return false }
                }
            }
            for accepted in mail { try await Self.insert(accepted, on: db) }
            return true
        }
    }

    /// The message row, its content a chunk per row as it is read, then its delivery record.
    static func insert(_ accepted: AcceptedRelayMail, on db: any SQLDatabase) async throws {
        let id = accepted.mail.message.id
        try await db.insert(into: RelayMessageRow.table).model(RelayMessageRow(accepted.mail.message), with: rowEncoder).run()
        var sequence = 0
        try await accepted.content.forEachChunk { chunk in
            try await db.insert(into: RelayMessageChunkRow.table).model(
                RelayMessageChunkRow(messageID: id, sequence: sequence, chunk), with: rowEncoder
            )
            .run()
            sequence += 1
        }
        try await db.insert(into: RelayDeliveryRow.table).model(RelayDeliveryRow(accepted.mail.delivery), with: rowEncoder).run()
    }

    public func relayMail(_ query: RelayMailQuery, limit: Int) async throws -> [RelayMail] {
        var select = selectMail()
        switch query {
        case .address(let address):
            select = select.where {
                $0.where(SQLColumn("recipient", table: "m"), .equal, SQLBind(address)).orWhere(
                    SQLColumn("destination", table: "m"), .equal, SQLBind(address))
            }
        case .mailbox(let accountID):
            select = select.where(SQLColumn("account_id", table: "m"), .equal, SQLBind(accountID))
                .where(SQLColumn("direction", table: "m"), .equal, SQLBind(RelayMessage.Direction.forward.rawValue))
        case .team(let teamID):
            select = select.where(SQLColumn("team_id", table: "m"), .equal, SQLBind(teamID.rawValue))
        case .all: break
        }
        return try await select.orderBy(SQLOrderBy(expression: SQLColumn("received_at", table: "m"), direction: SQLDirection.descending))
            .orderBy(SQLOrderBy(expression: SQLColumn("id", table: "m"), direction: SQLDirection.descending))
            .limit(limit)
            .all(decoding: RelayMailRow.self)
            .map { $0.mail() }
    }

    public func relayMail(id: String) async throws -> RelayMail? {
        try await selectMail().where(SQLColumn("id", table: "m"), .equal, SQLBind(id)).first(decoding: RelayMailRow.self)?.mail()
    }

    /// The chunks in order; a message stored before chunks (version 19) has its source in its row.
    public func relayMessageSource(id: String) async throws -> [UInt8]? {
        let chunks = try await db.select().column("bytes").from(RelayMessageChunkRow.table).where("message_id", .equal, id)
            .orderBy("sequence").all().map { try $0.decode(column: "bytes", as: String.self) }
        if !chunks.isEmpty { return chunks.reduce(into: [UInt8]()) { $0 += Data(base64Encoded: $1) ?? Data() } }
        let row = try await db.select().column("source").from(RelayMessageRow.table).where("id", .equal, id).first()
        guard let text = try row?.decode(column: "source", as: String.self) else { return nil }
        return Data(base64Encoded: text).map { Array($0) }
    }

    public func dueRelayDeliveries(at now: Date, limit: Int) async throws -> [RelayDelivery] {
        try await db.select().column("*").from(RelayDeliveryRow.table)
            .where("state", .equal, RelayDelivery.State.queued.rawValue)
            .where("next_attempt_at", .lessThanOrEqual, now.sqlSeconds)
            .orderBy("next_attempt_at").orderBy("message_id")
            .limit(limit)
            .all(decoding: RelayDeliveryRow.self)
            .map { $0.delivery() }
    }

    /// One `UPDATE … WHERE <still due> RETURNING`: of concurrent claims only one finds the row due.
    public func claimRelayDelivery(messageID: String, now: Date, leaseUntil: Date) async throws -> Bool {
        try await db.update(RelayDeliveryRow.table)
            .set("next_attempt_at", to: leaseUntil.sqlSeconds)
            .where("message_id", .equal, messageID)
            .where("state", .equal, RelayDelivery.State.queued.rawValue)
            .where("next_attempt_at", .lessThanOrEqual, now.sqlSeconds)
            .returning("message_id")
            .first() != nil
    }

    public func record(_ delivery: RelayDelivery, bounce: AcceptedRelayMail?) async throws {
        try await transaction { db in
            try await db.update(RelayDeliveryRow.table)
                .set(model: RelayDeliveryRow(delivery), with: Self.rowEncoder)
                .where("message_id", .equal, delivery.messageID)
                .run()
            if let bounce { try await Self.insert(bounce, on: db) }
        }
    }

    private func selectMail() -> SQLSelectBuilder {
        db.select().columns(RelayMailRow.columns.map { SQLColumn($0, table: "m") })
            .column(SQLColumn(SQLLiteral.all, table: SQLIdentifier("d")))
            .from(SQLAlias(SQLIdentifier(RelayMessageRow.table), as: SQLIdentifier("m")))
            .join(
                SQLAlias(SQLIdentifier(RelayDeliveryRow.table), as: SQLIdentifier("d")), on: SQLColumn("message_id", table: "d"), .equal,
                SQLColumn("id", table: "m"))
    }

    public func recordRelayRefusal(_ refusal: RelayRefusalRecord) async throws {
        try await db.insert(into: RelayRefusalRow.table).model(RelayRefusalRow(refusal), with: Self.rowEncoder).run()
    }

    public func relayRefusals(teamID: TeamID, since date: Date, limit: Int) async throws -> [RelayRefusalRecord] {
        try await db.select().column("*").from(RelayRefusalRow.table)
            .where("team_id", .equal, teamID.rawValue).where("at", .greaterThan, date.sqlSeconds)
            .orderBy("at", .descending).orderBy("id", .descending).limit(limit)
            .all(decoding: RelayRefusalRow.self).map { $0.record() }
    }

    /// The ids first, then their chunks, delivery records and rows, in one transaction, a batch at a time.
    public func purgeRelayMail(receivedBefore date: Date) async throws -> Int {
        try await transaction { db in
            let rows = try await db.raw(
                """
                SELECT m.id AS id FROM relay_messages m JOIN relay_deliveries d ON d.message_id = m.id
                WHERE m.received_at < \(bind: date.sqlSeconds) AND d.state <> \(bind: RelayDelivery.State.queued.rawValue)
                """
            ).all()
            let ids = try rows.map { try $0.decode(column: "id", as: String.self) }
            for start in stride(from: 0, to: ids.count, by: 500) {
                let batch = SQLBind.group(Array(ids[start..<min(start + 500, ids.count)]))
                try await db.delete(from: RelayMessageChunkRow.table).where(SQLIdentifier("message_id"), .in, batch).run()
                try await db.delete(from: RelayDeliveryRow.table).where(SQLIdentifier("message_id"), .in, batch).run()
                try await db.delete(from: RelayMessageRow.table).where(SQLIdentifier("id"), .in, batch).run()
            }
            return ids.count
        }
    }

    public func purgeRelayRefusals(before date: Date) async throws -> Int {
        try await db.delete(from: RelayRefusalRow.table).where("at", .lessThan, date.sqlSeconds).returning("id").all().count
    }
}
