import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore: FlowRecordStore {
    public func save(_ record: FlowRecord) async throws {
        try await upsert(FlowRecordRow(record), into: FlowRecordRow.table, key: FlowRecordRow.key)
    }

    public func flowRecord(_ kind: FlowRecord.Kind, key: String, now: Date) async throws -> FlowRecord? {
        try await db.select().column("*").from(FlowRecordRow.table)
            .where("kind", .equal, kind.rawValue)
            .where("key_hash", .equal, key)
            .where("expires_at", .greaterThan, now.sqlSeconds)
            .first(decoding: FlowRecordRow.self)?.record()
    }

    /// One `DELETE … RETURNING`: of concurrent callers only the one whose delete found the row gets it.
    public func takeFlowRecord(_ kind: FlowRecord.Kind, key: String, now: Date) async throws -> FlowRecord? {
        try await db.delete(from: FlowRecordRow.table)
            .where("kind", .equal, kind.rawValue)
            .where("key_hash", .equal, key)
            .where("expires_at", .greaterThan, now.sqlSeconds)
            .returning("kind", "key_hash", "payload", "expires_at")
            .first(decoding: FlowRecordRow.self)?.record()
    }

    public func deleteFlowRecord(_ kind: FlowRecord.Kind, key: String) async throws {
        try await db.delete(from: FlowRecordRow.table)
            .where("kind", .equal, kind.rawValue)
            .where("key_hash", .equal, key)
            .run()
    }
}

struct FlowRecordRow: Codable, Sendable {
    static let table = "flow_records"
    static let key = ["kind", "key_hash"]
    var kind: String
    var keyHash: String
    var payload: String
    var expiresAt: Double

    enum CodingKeys: String, CodingKey {
        case kind, payload
        case keyHash = "key_hash"
        case expiresAt = "expires_at"
    }

    init(_ record: FlowRecord) {
        kind = record.kind.rawValue
        keyHash = record.key
        payload = record.payload
        expiresAt = record.expiresAt.sqlSeconds
    }

    func record() -> FlowRecord {
        FlowRecord(kind: FlowRecord.Kind(rawValue: kind), key: keyHash, payload: payload, expiresAt: Date(sqlSeconds: expiresAt))
    }
}
