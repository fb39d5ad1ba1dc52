import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation
import SQLKit

struct RelayReplyAliasRow: Codable, Sendable {
    static let table = "relay_reply_aliases"
    var alias: String
    var accountID: String
    var teamID: String
    var relayAddress: String
    var sender: String
    var createdAt: Double

    enum CodingKeys: String, CodingKey {
        case alias, sender
        case accountID = "account_id"
        case teamID = "team_id"
        case relayAddress = "relay_address"
        case createdAt = "created_at"
    }

    init(_ alias: RelayReplyAlias) {
        self.alias = alias.alias
        accountID = alias.accountID
        teamID = alias.teamID.rawValue
        relayAddress = alias.relayAddress
        sender = alias.sender
        createdAt = alias.createdAt.sqlSeconds
    }

    func replyAlias() -> RelayReplyAlias {
        RelayReplyAlias(
            alias: alias, accountID: accountID, teamID: TeamID(rawValue: teamID), relayAddress: relayAddress, sender: sender,
            createdAt: Date(sqlSeconds: createdAt))
    }
}

/// The columns of `relay_messages` but the source, which only ``RelayMessageRow`` writes.
struct RelayMessageFields: Codable, Sendable {
    var id: String
    var direction: String
    var accountID: String
    var teamID: String
    var relayAddress: String
    var originalSender: String
    var recipient: String
    var envelopeSender: String
    var destination: String
    var fromHeader: String
    var subject: String
    var receivedAt: Double
    var size: Int

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, direction, recipient, destination, subject, size
        case accountID = "account_id"
        case teamID = "team_id"
        case relayAddress = "relay_address"
        case originalSender = "original_sender"
        case envelopeSender = "envelope_sender"
        case fromHeader = "from_header"
        case receivedAt = "received_at"
    }

    init(_ message: RelayMessage) {
        id = message.id
        direction = message.direction.rawValue
        accountID = message.accountID
        teamID = message.teamID.rawValue
        relayAddress = message.relayAddress
        originalSender = message.originalSender
        recipient = message.recipient
        envelopeSender = message.envelopeSender
        destination = message.destination
        fromHeader = message.from
        subject = message.subject
        receivedAt = message.receivedAt.sqlSeconds
        size = message.size
    }

    func message() -> RelayMessage {
        RelayMessage(
            id: id, direction: RelayMessage.Direction(rawValue: direction) ?? .forward, accountID: accountID, teamID: TeamID(rawValue: teamID),
            relayAddress: relayAddress, originalSender: originalSender, recipient: recipient, envelopeSender: envelopeSender,
            destination: destination, from: fromHeader, subject: subject, receivedAt: Date(sqlSeconds: receivedAt), size: size)
    }
}

/// A message row: its content is in ``RelayMessageChunkRow``s, or its head here and its body
/// shared (``RelayMessageBodyRow``, version 33), so `source` (the whole message before version 19)
/// is left empty.
struct RelayMessageRow: Encodable, Sendable {
    static let table = "relay_messages"
    var fields: RelayMessageFields
    var source = ""
    var bodyID: String?
    /// The head, base64, when the body is shared.
    var head: String?

    init(_ message: RelayMessage) {
        fields = RelayMessageFields(message)
    }

    func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
        var container = encoder.container(keyedBy: SourceKey.self)
        try container.encode(source, forKey: .source)
        try container.encode(bodyID, forKey: .bodyID)
        try container.encode(head, forKey: .head)
    }

    enum SourceKey: String, CodingKey {
        case source, head
        case bodyID = "body_id"
    }
}

/// A table of content chunks, a row each in order, base64 (binary-safe text in both databases): a
/// message's own content (by message id, version 19), or a body its copies share (by body id, 33).
struct RelayContentChunks: Sendable {
    static let messages = RelayContentChunks(table: "relay_message_chunks", ownerColumn: "message_id")
    static let sharedBodies = RelayContentChunks(table: "relay_message_bodies", ownerColumn: "body_id")
    let table: String
    let ownerColumn: String

    /// Writes what `content` lends, a chunk per row, as it is read: a statement per chunk to `emit`.
    func insert(
        owner: String, on db: any SQLDatabase, _ emit: @escaping SQLStore.StatementSink,
        _ content: ((ArraySlice<UInt8>) async throws -> Void) async throws -> Void
    ) async throws {
        var sequence = 0
        try await content { chunk in
            try await emit(
                db.insert(into: table).columns(ownerColumn, "sequence", "bytes")
                    .values(SQLBind(owner), SQLBind(sequence), SQLBind(Data(chunk).base64EncodedString())).query)
            sequence += 1
        }
    }

    /// Lends `body` the owner's chunks in order, one statement per chunk, so that one chunk at a time
    /// is in memory; with `limit`, stops after the chunk that reaches it. `false`: it has none.
    func read(owner: String, on db: any SQLDatabase, upTo limit: Int?, _ body: (ArraySlice<UInt8>) async throws -> Void) async throws -> Bool {
        var sequence = 0
        var lent = 0
        while lent < limit ?? .max,
            let row = try await db.select().column("bytes").from(table).where(SQLIdentifier(ownerColumn), .equal, SQLBind(owner))
                .where("sequence", .equal, sequence).first()
        {
            let chunk = Array(Data(base64Encoded: try row.decode(column: "bytes", as: String.self)) ?? Data())
            try await body(chunk[...])
            lent += chunk.count
            sequence += 1
        }
        return sequence > 0
    }
}

struct RelayDeliveryRow: Codable, Sendable {
    static let table = "relay_deliveries"
    var messageID: String
    var state: String
    var attempts: Int
    var nextAttemptAt: Double?
    var lastError: String?
    var updatedAt: Double

    enum CodingKeys: String, CodingKey {
        case state, attempts
        case messageID = "message_id"
        case nextAttemptAt = "next_attempt_at"
        case lastError = "last_error"
        case updatedAt = "updated_at"
    }

    init(_ delivery: RelayDelivery) {
        messageID = delivery.messageID
        state = delivery.state.rawValue
        attempts = delivery.attempts
        nextAttemptAt = delivery.nextAttemptAt?.sqlSeconds
        lastError = delivery.lastError
        updatedAt = delivery.updatedAt.sqlSeconds
    }

    func delivery() -> RelayDelivery {
        RelayDelivery(
            messageID: messageID, state: RelayDelivery.State(rawValue: state) ?? .queued, attempts: attempts,
            nextAttemptAt: nextAttemptAt.map(Date.init(sqlSeconds:)), lastError: lastError, updatedAt: Date(sqlSeconds: updatedAt))
    }
}

/// A message joined with its delivery record (`m.*` but the source, and `d.*`).
struct RelayMailRow: Decodable, Sendable {
    static let columns = RelayMessageFields.CodingKeys.allCases.map(\.rawValue)
    var fields: RelayMessageFields
    var delivery: RelayDeliveryRow

    init(from decoder: any Decoder) throws {
        fields = try RelayMessageFields(from: decoder)
        delivery = try RelayDeliveryRow(from: decoder)
    }

    func mail() -> RelayMail { RelayMail(message: fields.message(), delivery: delivery.delivery()) }
}

struct RelayRefusalRow: Codable, Sendable {
    static let table = "relay_refusals"
    var id: String
    var teamID: String
    var sender: String
    var recipient: String
    var reply: String
    var at: Double

    enum CodingKeys: String, CodingKey {
        case id, sender, recipient, reply, at
        case teamID = "team_id"
    }

    init(_ refusal: RelayRefusalRecord) {
        id = refusal.id
        teamID = refusal.teamID.rawValue
        sender = refusal.sender
        recipient = refusal.recipient
        reply = refusal.reply
        at = refusal.at.sqlSeconds
    }

    func record() -> RelayRefusalRecord {
        RelayRefusalRecord(id: id, teamID: TeamID(rawValue: teamID), sender: sender, recipient: recipient, reply: reply, at: Date(sqlSeconds: at))
    }
}
