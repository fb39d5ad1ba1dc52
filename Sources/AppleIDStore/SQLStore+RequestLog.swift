import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore: RequestLogStore {
    /// Inserts the entries in one statement, then deletes each of their clients' entries older than
    /// its newest `keepingLast`. The trims need no transaction with the insert: each keeps the newest
    /// rows whatever ran before it.
    public func record(_ entries: [RequestLogEntry], keepingLast: Int) async throws {
        guard !entries.isEmpty else { return }
        // A row ID orders entries of the same instant as they were recorded (newest first is `at DESC, id DESC`).
        let batch = UUID().uuidString
        let rows = entries.enumerated().map { RequestLogRow($1, id: "\(batch)-\(String(format: "%05d", $0))") }
        try await db.insert(into: RequestLogRow.table).models(rows, with: Self.rowEncoder).run()
        struct Bucket: Hashable {
            let clientID: ClientID
            let proven: Int
        }
        var trimmed: Set<Bucket> = []
        for bucket in entries.map({ Bucket(clientID: $0.clientID, proven: $0.isProven ? 1 : 0) }) where trimmed.insert(bucket).inserted {
            let clientID = bucket.clientID.rawValue
            try await db.raw(
                """
                DELETE FROM request_log WHERE client_id = \(bind: clientID) AND proven = \(bind: bucket.proven) AND id NOT IN (
                    SELECT id FROM request_log WHERE client_id = \(bind: clientID) AND proven = \(bind: bucket.proven)
                    ORDER BY at DESC, id DESC LIMIT \(bind: keepingLast))
                """
            ).run()
        }
    }

    public func requestLog(clientID: ClientID, proven: Bool, limit: Int) async throws -> [RequestLogEntry] {
        try await db.select().column("*").from(RequestLogRow.table).where("client_id", .equal, clientID.rawValue)
            .where("proven", .equal, proven ? 1 : 0)
            .orderBy("at", .descending).orderBy("id", .descending).limit(limit)
            .all(decoding: RequestLogRow.self).map { try $0.entry() }
    }
}

struct RequestLogRow: Codable, Sendable {
    static let table = "request_log"
    var id: String
    var clientID: String
    var endpoint: String
    var at: Double
    var outcome: String
    var reason: String
    /// 1 for a proven request, 0 for an unproven one (an integer on both SQLite and PostgreSQL).
    var proven: Int

    enum CodingKeys: String, CodingKey {
        case id, endpoint, at, outcome, reason, proven
        case clientID = "client_id"
    }

    init(_ entry: RequestLogEntry, id: String) {
        self.id = id
        clientID = entry.clientID.rawValue
        endpoint = entry.endpoint.rawValue
        at = entry.at.sqlSeconds
        outcome = entry.outcome
        reason = entry.reason
        proven = entry.isProven ? 1 : 0
    }

    func entry() throws -> RequestLogEntry {
        RequestLogEntry(
            clientID: ClientID(rawValue: clientID), endpoint: try .decoded(endpoint, table: Self.table, column: "endpoint"),
            at: Date(sqlSeconds: at), outcome: outcome, reason: reason, isProven: proven != 0)
    }
}
