import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation
import SQLKit

extension SQLStore: RelayMailStore {
    public func replyAlias(_ alias: String) async throws -> RelayReplyAlias? {
        try await row(RelayReplyAliasRow.self, from: RelayReplyAliasRow.table, where: "alias", equals: alias)?.replyAlias()
    }

    /// The stored alias of the relay address and sender when there is one (every message but a
    /// sender's first: one read, and no write to wait for); else `INSERT … ON CONFLICT DO NOTHING`,
    /// then read back whichever row won.
    public func insertReplyAlias(_ alias: RelayReplyAlias) async throws -> RelayReplyAlias {
        if let stored = try await storedReplyAlias(relayAddress: alias.relayAddress, sender: alias.sender) { return stored }
        try await db.insert(into: RelayReplyAliasRow.table).model(RelayReplyAliasRow(alias), with: Self.rowEncoder).ignoringConflicts().run()
        guard let stored = try await storedReplyAlias(relayAddress: alias.relayAddress, sender: alias.sender) else {
            throw StoreError.conflict("reply alias \(alias.alias) is taken")
        }
        return stored
    }

    private func storedReplyAlias(relayAddress: String, sender: String) async throws -> RelayReplyAlias? {
        try await prepared.select().column("*").from(RelayReplyAliasRow.table)
            .where("relay_address", .equal, relayAddress)
            .where("sender", .equal, sender)
            .first(decoding: RelayReplyAliasRow.self)?
            .replyAlias()
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
    /// turns, and a batch whose every message fits in one chunk goes to the writer's thread as one
    /// work item: the check, the decision and the writes (``SQLConnectionSource/transaction(checking:decide:writing:)``).
    /// PostgreSQL's read-committed transactions would both count before either writes, so each
    /// first locks its relay addresses, then its teams (transaction-scoped advisory locks, in one
    /// order so that two batches cannot wait for each other): a second session counts what the first
    /// wrote. Every address's count and every team's bytes are read in one statement
    /// (``RelayAcceptCheck``).
    public func accept(_ mail: [AcceptedRelayMail], limits: RelayAcceptLimits) async throws -> RelayAcceptance {
        let check = RelayAcceptCheck(mail, limits: limits)
        if db.dialect.name != "postgresql", mail.allSatisfy({ $0.content.count <= RelayMessageChunk.size }) {
            var writes: [any SQLExpression] = []
            try await Self.write(mail, on: db) { writes.append($0) }
            return try await connections.transaction(checking: check.statement, decide: check.decide, writing: writes) ?? .accepted
        }
        return try await transaction { db in
            if db.dialect.name == "postgresql" {
                for name in check.lockNames { try await db.raw("SELECT pg_advisory_xact_lock(hashtext(\(bind: name)))").run() }
            }
            if let refusal = try await check.run(on: db) { return refusal }
            try await Self.write(mail, on: db, Self.running(on: db))
            return .accepted
        }
    }

    /// The statements that write every message of the batch, in order, to `emit`: a shared body only
    /// with its first copy.
    private static func write(_ mail: [AcceptedRelayMail], on db: any SQLDatabase, _ emit: @escaping StatementSink) async throws {
        var writtenBodies: Set<String> = []
        for accepted in mail {
            if let bodyID = accepted.content.bodyID {
                let writesBody = writtenBodies.insert(bodyID).inserted
                try await insertSharingBody(accepted, bodyID: bodyID, writesBody: writesBody, on: db, emit)
            } else {
                try await insert(accepted, on: db, emit)
            }
        }
    }

    public func relayStoredBytes(teamID: TeamID) async throws -> Int { try await Self.relayStoredBytes(teamID: teamID, on: db) }

    /// The message row, its content a chunk per row as it is read, then its delivery record.
    static func insert(_ accepted: AcceptedRelayMail, on db: any SQLDatabase, _ emit: @escaping StatementSink) async throws {
        let id = accepted.mail.message.id
        try await insertCounted(RelayMessageRow(accepted.mail.message), on: db, emit)
        try await RelayContentChunks.messages.insert(owner: id, on: db, emit, accepted.content.forEachChunk)
        try await emit(try db.insert(into: RelayDeliveryRow.table).model(RelayDeliveryRow(accepted.mail.delivery), with: rowEncoder).query)
    }

    /// Where the statements of ``insert(_:on:_:)`` go: run on `db`, one by one, each waited for.
    static func running(on db: any SQLDatabase) -> StatementSink {
        { statement in try await db.execute(sql: statement) { _ in } }
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

    /// The head and the shared body (version 33); else the chunks in order; a message stored before
    /// chunks (version 19) has its source in its row. One statement for the row, then one per chunk.
    public func readRelayMessageSource(id: String, upTo limit: Int?, _ body: (ArraySlice<UInt8>) async throws -> Void) async throws -> Bool {
        guard let row = try await db.select().columns("source", "body_id", "head").from(RelayMessageRow.table).where("id", .equal, id).first()
        else { return false }
        if let bodyID = try row.decode(column: "body_id", as: String?.self) {
            let head = Array(Data(base64Encoded: try row.decode(column: "head", as: String.self)) ?? Data())
            if !head.isEmpty { try await body(head[...]) }
            guard head.count < limit ?? .max else { return true }
            _ = try await RelayContentChunks.sharedBodies.read(owner: bodyID, on: db, upTo: limit.map { $0 - head.count }, body)
            return true
        }
        if try await RelayContentChunks.messages.read(owner: id, on: db, upTo: limit, body) { return true }
        try await body((Data(base64Encoded: try row.decode(column: "source", as: String.self)).map { Array($0) } ?? [])[...])
        return true
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
            if let bounce { try await Self.insert(bounce, on: db, Self.running(on: db)) }
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

    /// The ids first, then their chunks, delivery records and rows, in one transaction, a batch at a
    /// time; last the shared bodies no copy names any more.
    public func purgeRelayMail(receivedBefore date: Date) async throws -> Int {
        try await transaction { db in
            let rows = try await db.raw(
                """
                SELECT m.id AS id, m.body_id AS body_id, m.team_id AS team_id, m.size AS size
                FROM relay_messages m JOIN relay_deliveries d ON d.message_id = m.id
                WHERE m.received_at < \(bind: date.sqlSeconds) AND d.state <> \(bind: RelayDelivery.State.queued.rawValue)
                """
            ).all()
            let ids = try rows.map { try $0.decode(column: "id", as: String.self) }
            let bodyIDs = Set(try rows.compactMap { try $0.decode(column: "body_id", as: String?.self) })
            let freed = try rows.reduce(into: [String: Int]()) {
                $0[try $1.decode(column: "team_id", as: String.self), default: 0] += try $1.decode(column: "size", as: Int.self)
            }
            for start in stride(from: 0, to: ids.count, by: 500) {
                let batch = SQLBind.group(Array(ids[start..<min(start + 500, ids.count)]))
                try await db.delete(from: RelayContentChunks.messages.table).where(SQLIdentifier("message_id"), .in, batch).run()
                try await db.delete(from: RelayDeliveryRow.table).where(SQLIdentifier("message_id"), .in, batch).run()
                try await db.delete(from: RelayMessageRow.table).where(SQLIdentifier("id"), .in, batch).run()
            }
            try await Self.deleteUnsharedBodies(bodyIDs.sorted(), on: db)
            for (teamID, bytes) in freed.sorted(by: { $0.key < $1.key }) { try await db.raw(Self.addRelayStoredBytes(-bytes, teamID: teamID)).run() }
            return ids.count
        }
    }

    public func purgeRelayRefusals(before date: Date) async throws -> Int {
        try await db.delete(from: RelayRefusalRow.table).where("at", .lessThan, date.sqlSeconds).returning("id").all().count
    }
}
