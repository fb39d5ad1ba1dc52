import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation
import SQLKit

/// Each team's stored bytes of relayed mail as one row (version 34), kept in the transactions that
/// write and purge messages: the quota check reads one row instead of summing every message the
/// team has at every accepted message.
extension SQLStore {
    /// Takes the statements that write relayed mail, in order: runs them, or keeps them to send
    /// together.
    typealias StatementSink = (any SQLExpression) async throws -> Void

    static let relayTeamUsageTable = "relay_team_usage"

    static let relayTeamUsageMigrations: [SchemaMigration] = [
        SchemaMigration(
            version: 34,
            statements: [
                "CREATE TABLE IF NOT EXISTS relay_team_usage (team_id TEXT PRIMARY KEY, bytes BIGINT NOT NULL)",
                // From the mail already stored.
                "INSERT INTO relay_team_usage (team_id, bytes) SELECT team_id, SUM(size) FROM relay_messages GROUP BY team_id",
            ])
    ]

    /// The message row, counted against its team.
    static func insertCounted(_ row: RelayMessageRow, on db: any SQLDatabase, _ emit: @escaping StatementSink) async throws {
        try await emit(try db.insert(into: RelayMessageRow.table).model(row, with: rowEncoder).query)
        try await emit(addRelayStoredBytes(row.fields.size, teamID: row.fields.teamID))
    }

    static func addRelayStoredBytes(_ bytes: Int, teamID: String) -> SQLQueryString {
        """
        INSERT INTO relay_team_usage (team_id, bytes) VALUES (\(bind: teamID), \(bind: bytes))
        ON CONFLICT (team_id) DO UPDATE SET bytes = relay_team_usage.bytes + excluded.bytes
        """
    }

    static func relayStoredBytes(teamID: TeamID, on db: any SQLDatabase) async throws -> Int {
        let row = try await db.select().column("bytes").from(relayTeamUsageTable).where("team_id", .equal, teamID.rawValue).first()
        return try row?.decode(column: "bytes", as: Int.self) ?? 0
    }
}
