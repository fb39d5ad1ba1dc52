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
            try await site.page(request) { try await page($0) }
        }
        router.post("/console/transfer") { request, _ in
            try await site.action(
                request,
                { visit, form in
                    let offer = try await site.provider.offerTransfer(
                        groupID: ClientID(rawValue: form.groupID ?? ""), from: visit.teamID, to: TeamID(rawValue: form.teamID ?? ""),
                        offeredBy: visit.developer.id)
                    let values = ["id": offer.groupID.rawValue, "team": offer.toTeamID.rawValue]
                    return try await page(visit, message: site.text("console_transfer_offered", visit.locale, values: values))
                }, onError: { visit, error in try await page(visit, error: error) })
        }
        router.post("/console/transfer/accept") { request, _ in
            try await site.action(
                request,
                { visit, form in
                    let transfer = try await site.provider.acceptTransfer(groupID: ClientID(rawValue: form.groupID ?? ""), teamID: visit.teamID)
                    let values = [
                        "id": transfer.groupID.rawValue, "team": transfer.toTeamID.rawValue, "until": transfer.windowEndsAt.ISO8601Format(),
                    ]
                    return try await page(visit, message: site.text("console_transferred", visit.locale, values: values))
                }, onError: { visit, error in try await page(visit, error: error) })
        }
        router.post("/console/transfer/decline") { request, _ in
            try await site.action(
                request,
                { visit, form in
                    try await site.provider.declineTransfer(groupID: ClientID(rawValue: form.groupID ?? ""), teamID: visit.teamID)
                    return try await page(visit, message: site.text("console_transfer_declined", visit.locale, values: ["id": form.groupID ?? ""]))
                }, onError: { visit, error in try await page(visit, error: error) })
        }
        router.post("/console/transfer/withdraw") { request, _ in
            try await site.action(
                request,
                { visit, form in
                    try await site.provider.withdrawTransferOffer(groupID: ClientID(rawValue: form.groupID ?? ""), teamID: visit.teamID)
                    return try await page(visit, message: site.text("console_transfer_withdrawn", visit.locale, values: ["id": form.groupID ?? ""]))
                }, onError: { visit, error in try await page(visit, error: error) })
        }
    }

    private func page(_ visit: ConsoleSite.Visit, message: String? = nil, error: ConsoleError? = nil) async throws -> Response {
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
            primaries: groups.map { PrimaryChoice(id: $0.primaryAppID.rawValue, selected: false) }, hasPrimaries: !groups.isEmpty,
            transfers: transfers, hasTransfers: !transfers.isEmpty, incoming: incoming, hasIncoming: !incoming.isEmpty, outgoing: outgoing,
            hasOutgoing: !outgoing.isEmpty)
        return try site.render(
            visit, template: "console_transfer", section: "transfer", content: content, message: message, error: error?.message,
            status: error.map(ConsoleIdentifierEndpoints.status) ?? .ok)
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
    let transfers: [TransferRow]
    let hasTransfers: Bool
    let incoming: [OfferRow]
    let hasIncoming: Bool
    let outgoing: [OfferRow]
    let hasOutgoing: Bool
}
