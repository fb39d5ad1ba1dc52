import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import SQLKit

/// Transfer offers: one row per group; accepting takes the row with `DELETE … RETURNING`.
extension SQLStore: TransferOfferStore {
    public func save(_ offer: TransferOffer) async throws {
        try await upsert(TransferOfferRow(offer), into: TransferOfferRow.table, key: ["group_id"])
    }

    public func transferOffers(involving teamID: TeamID, now: Date) async throws -> [TransferOffer] {
        try await db.select().column("*").from(TransferOfferRow.table)
            .where { $0.where("from_team_id", .equal, teamID.rawValue).orWhere("to_team_id", .equal, teamID.rawValue) }
            .where("expires_at", .greaterThan, now.sqlSeconds)
            .orderBy("offered_at", .descending).orderBy("group_id", .descending)
            .all(decoding: TransferOfferRow.self).map { $0.offer() }
    }

    public func takeTransferOffer(groupID: ClientID, toTeamID: TeamID, now: Date) async throws -> TransferOffer? {
        try await db.raw(
            """
            DELETE FROM transfer_offers
            WHERE group_id = \(bind: groupID.rawValue) AND to_team_id = \(bind: toTeamID.rawValue) AND expires_at > \(bind: now.sqlSeconds)
            RETURNING *
            """
        ).first(decoding: TransferOfferRow.self)?.offer()
    }

    public func deleteTransferOffer(groupID: ClientID, fromTeamID: TeamID) async throws -> Bool {
        try await db.raw(
            """
            DELETE FROM transfer_offers WHERE group_id = \(bind: groupID.rawValue) AND from_team_id = \(bind: fromTeamID.rawValue)
            RETURNING group_id
            """
        ).all().count > 0
    }
}

struct TransferOfferRow: Codable, Sendable {
    static let table = "transfer_offers"
    var groupID: String
    var fromTeamID: String
    var toTeamID: String
    var offeredBy: String
    var offeredAt: Double
    var expiresAt: Double

    enum CodingKeys: String, CodingKey {
        case groupID = "group_id"
        case fromTeamID = "from_team_id"
        case toTeamID = "to_team_id"
        case offeredBy = "offered_by"
        case offeredAt = "offered_at"
        case expiresAt = "expires_at"
    }

    init(_ offer: TransferOffer) {
        groupID = offer.groupID.rawValue
        fromTeamID = offer.fromTeamID.rawValue
        toTeamID = offer.toTeamID.rawValue
        offeredBy = offer.offeredBy
        offeredAt = offer.offeredAt.sqlSeconds
        expiresAt = offer.expiresAt.sqlSeconds
    }

    func offer() -> TransferOffer {
        TransferOffer(
            groupID: ClientID(rawValue: groupID), fromTeamID: TeamID(rawValue: fromTeamID), toTeamID: TeamID(rawValue: toTeamID),
            offeredBy: offeredBy, offeredAt: Date(sqlSeconds: offeredAt), expiresAt: Date(sqlSeconds: expiresAt))
    }
}
