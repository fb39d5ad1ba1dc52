import AppleIDProvider
import AppleIDRelay
import Foundation
import SQLKit

/// One stored body for all the copies of a received message (version 33; issue 35, finding 10): a
/// message to several relay addresses is stored as one head per copy, in its row, and one body in
/// `relay_message_bodies`, a chunk per row. The last copy purged takes the body with it.
extension SQLStore {
    static let relayMessageBodyMigrations: [SchemaMigration] = [
        SchemaMigration(
            version: 33,
            statements: [
                "ALTER TABLE relay_messages ADD COLUMN body_id TEXT",
                // The copy's own header section, base64; its body is the body_id's chunks.
                "ALTER TABLE relay_messages ADD COLUMN head TEXT",
                "CREATE INDEX IF NOT EXISTS relay_messages_body ON relay_messages (body_id)",
                """
                CREATE TABLE IF NOT EXISTS relay_message_bodies (
                    body_id TEXT NOT NULL,
                    sequence INTEGER NOT NULL,
                    bytes TEXT NOT NULL,
                    PRIMARY KEY (body_id, sequence)
                )
                """,
            ])
    ]

    /// The message row with its head, then, unless an earlier copy of the batch wrote it, the
    /// shared body a chunk per row.
    static func insertSharingBody(
        _ accepted: AcceptedRelayMail, bodyID: String, writesBody: Bool, on db: any SQLDatabase, _ emit: @escaping StatementSink
    ) async throws {
        var row = RelayMessageRow(accepted.mail.message)
        row.bodyID = bodyID
        row.head = Data(accepted.content.head).base64EncodedString()
        try await insertCounted(row, on: db, emit)
        if writesBody { try await RelayContentChunks.sharedBodies.insert(owner: bodyID, on: db, emit, accepted.content.forEachBodyChunk) }
        try await emit(try db.insert(into: RelayDeliveryRow.table).model(RelayDeliveryRow(accepted.mail.delivery), with: rowEncoder).query)
    }

    /// Deletes those of `bodyIDs` that no message names any more.
    static func deleteUnsharedBodies(_ bodyIDs: [String], on db: any SQLDatabase) async throws {
        for start in stride(from: 0, to: bodyIDs.count, by: 500) {
            let batch = Array(bodyIDs[start..<min(start + 500, bodyIDs.count)])
            try await db.raw(
                """
                DELETE FROM relay_message_bodies WHERE body_id IN \(SQLBind.group(batch))
                AND NOT EXISTS (SELECT 1 FROM relay_messages m WHERE m.body_id = relay_message_bodies.body_id)
                """
            ).run()
        }
    }
}
