import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Transfer: offer an app group to another team, and accept, decline or withdraw offers (the group
/// moves only when the recipient accepts), with the 60-day window in which both teams may migrate users.
struct ConsoleTransferEndpoints {
    let site: ConsoleSite

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/console/transfer") { request, _ in
            try await site.page(request) { visit in try await site.show(visit, page) }
        }
        router.post("/console/transfer") { request, _ in
            try await site.action(request, page: page) { visit, form in
                let offer = try await site.provider.offerTransfer(
                    groupID: ClientID(rawValue: form.groupID ?? ""), from: visit.teamID, to: TeamID(rawValue: form.teamID ?? ""),
                    offeredBy: visit.developer.id)
                let values = ["id": offer.groupID.rawValue, "team": offer.toTeamID.rawValue]
                return try await site.show(visit, page, message: site.text("console_transfer_offered", visit.locale, values: values))
            }
        }
        router.post("/console/transfer/accept") { request, _ in
            try await site.action(request, page: page) { visit, form in
                let transfer = try await site.provider.acceptTransfer(groupID: ClientID(rawValue: form.groupID ?? ""), teamID: visit.teamID)
                let values = [
                    "id": transfer.groupID.rawValue, "team": transfer.toTeamID.rawValue, "until": transfer.windowEndsAt.ISO8601Format(),
                ]
                return try await site.show(visit, page, message: site.text("console_transferred", visit.locale, values: values))
            }
        }
        router.post("/console/transfer/decline") { request, _ in
            try await site.action(request, page: page) { visit, form in
                try await site.provider.declineTransfer(groupID: ClientID(rawValue: form.groupID ?? ""), teamID: visit.teamID)
                return try await site.show(
                    visit, page, message: site.text("console_transfer_declined", visit.locale, values: ["id": form.groupID ?? ""]))
            }
        }
        router.post("/console/transfer/withdraw") { request, _ in
            try await site.action(request, page: page) { visit, form in
                try await site.provider.withdrawTransferOffer(groupID: ClientID(rawValue: form.groupID ?? ""), teamID: visit.teamID)
                return try await site.show(
                    visit, page, message: site.text("console_transfer_withdrawn", visit.locale, values: ["id": form.groupID ?? ""]))
            }
        }
    }

    /// The Transfer page; after a refused offer, the group and the recipient's Team ID typed.
    private func page(_ visit: ConsoleSite.Visit, kept: ConsoleForm?) async throws -> ConsolePage {
        let now = site.provider.clock.now()
        let groups = try await visit.console.appGroups()
        let transfers = try await visit.console.transfers().map { transfer in
            TransferRow(
                group: transfer.groupID.rawValue, from: transfer.fromTeamID.rawValue, to: transfer.toTeamID.rawValue,
                at: transfer.transferredAt.ISO8601Format(), windowEndsAt: transfer.windowEndsAt.ISO8601Format(),
                daysLeft: transfer.isOpen(at: now) ? Int((transfer.windowEndsAt.timeIntervalSince(now) / 86_400).rounded(.up)) : 0,
                isOpen: transfer.isOpen(at: now))
        }
        let offers = try await visit.console.transferOffers()
        let row = { (offer: TransferOffer) in
            OfferRow(
                group: offer.groupID.rawValue, from: offer.fromTeamID.rawValue, to: offer.toTeamID.rawValue, expires: ConsoleSite.day(offer.expiresAt)
            )
        }
        let incoming = offers.filter { $0.toTeamID == visit.teamID }.map(row)
        let outgoing = offers.filter { $0.fromTeamID == visit.teamID }.map(row)
        let content = TransferContent(
            primaries: [PrimaryChoice](groups, chosen: kept?.groupID), hasPrimaries: !groups.isEmpty, typedTeamID: kept?.teamID ?? "",
            transfers: transfers, hasTransfers: !transfers.isEmpty, incoming: incoming, hasIncoming: !incoming.isEmpty, outgoing: outgoing,
            hasOutgoing: !outgoing.isEmpty)
        return ConsolePage(template: "console_transfer", section: "transfer", content: content)
    }
}

struct TransferRow: Sendable {
    let group: String
    let from: String
    let to: String
    let at: String
    let windowEndsAt: String
    let daysLeft: Int
    let isOpen: Bool
}

/// A pending offer: to this team (incoming, to accept or decline) or from it (outgoing, to withdraw).
struct OfferRow: Sendable {
    let group: String
    let from: String
    let to: String
    let expires: String
}

struct TransferContent: Sendable {
    let primaries: [PrimaryChoice]
    let hasPrimaries: Bool
    /// The recipient of a refused offer, as typed.
    let typedTeamID: String
    let transfers: [TransferRow]
    let hasTransfers: Bool
    let incoming: [OfferRow]
    let hasIncoming: Bool
    let outgoing: [OfferRow]
    let hasOutgoing: Bool
}
