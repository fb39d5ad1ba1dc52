import AppleIDProtocol
import AppleIDRelay
import SQLKit

/// What ``SQLStore/accept(_:limits:)`` checks before it writes a batch, in one statement: each relay
/// address's messages of the day (``SQLStore/relayMessageCount(relayAddress:since:)``) and each
/// team's stored bytes (``SQLStore/relayStoredBytes(teamID:)``), a column each. One round trip to
/// the writer instead of one per limit, inside the transaction that writes.
struct RelayAcceptCheck: Sendable {
    /// The batch's messages per relay address, in lock order.
    let daily: [(address: String, count: Int)]
    let since: Double
    let dailyLimit: Int
    /// The batch's bytes per team, in lock order.
    let teams: [(teamID: TeamID, bytes: Int)]
    let quota: Int

    init(_ mail: [AcceptedRelayMail], limits: RelayAcceptLimits) {
        let counted = limits.daily == nil ? [:] : RelayDailyLimit.counted(mail)
        daily = counted.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        since = limits.daily?.since.sqlSeconds ?? 0
        dailyLimit = limits.daily?.count ?? 0
        let bytes = limits.teamBytes == nil ? [:] : RelayAcceptLimits.teamBytes(of: mail)
        teams = bytes.sorted { $0.key.rawValue < $1.key.rawValue }.map { ($0.key, $0.value) }
        quota = limits.teamBytes ?? 0
    }

    /// PostgreSQL's advisory locks, taken before the statement: the addresses, then the teams.
    var lockNames: [String] { daily.map { "relay_daily:" + $0.address } + teams.map { "relay_quota:" + $0.teamID.rawValue } }

    /// `SELECT (SELECT COUNT(*) …) AS d0, …, COALESCE((SELECT bytes …), 0) AS t0, …`; `nil` when there
    /// is no limit to check.
    var statement: SQLQueryString? {
        guard !daily.isEmpty || !teams.isEmpty else { return nil }
        let counts: [SQLQueryString] = daily.enumerated().map { index, entry in
            """
            (SELECT COUNT(*) FROM relay_messages WHERE relay_address = \(bind: entry.address) AND received_at > \(bind: since) \
            AND direction <> \(bind: RelayMessage.Direction.bounce.rawValue)) AS \(ident: "d\(index)")
            """
        }
        let bytes: [SQLQueryString] = teams.enumerated().map { index, entry in
            "COALESCE((SELECT bytes FROM relay_team_usage WHERE team_id = \(bind: entry.teamID.rawValue)), 0) AS \(ident: "t\(index)")"
        }
        return "SELECT " + (counts + bytes).joined(separator: ", ")
    }

    /// The first limit the batch would pass, checked in lock order (the daily limits, then the
    /// quotas), or `nil`: none, write it.
    func run(on db: any SQLDatabase) async throws -> RelayAcceptance? {
        guard let statement else { return nil }
        return try decide(try await db.raw(statement).all())
    }

    /// ``run(on:)``'s decision from the statement's rows (one), made where the rows are.
    @Sendable func decide(_ rows: [any SQLRow]) throws -> RelayAcceptance? {
        guard let row = rows.first else { return nil }
        for (index, entry) in daily.enumerated() where try row.decode(column: "d\(index)", as: Int.self) + entry.count > dailyLimit {
            return .dailyLimit
        }
        for (index, entry) in teams.enumerated() where try row.decode(column: "t\(index)", as: Int.self) + entry.bytes > quota {
            return .teamQuota(entry.teamID)
        }
        return nil
    }
}
