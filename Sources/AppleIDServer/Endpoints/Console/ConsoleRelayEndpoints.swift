import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation
import Hummingbird

/// Relay (beyond Apple's portal): the team's private-relay traffic of the last seven days per e-mail
/// source: how much was accepted, refused and bounced, why mail was refused, and the latest entries.
/// It answers "why did my mail not arrive?" as the Requests page does for tokens. Users' real
/// addresses never appear: the engine's read model holds relay addresses only.
struct ConsoleRelayEndpoints {
    let site: ConsoleSite

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/console/relay") { request, _ in
            try await site.page(request) { visit in
                let traffic = try await site.relay.traffic(teamID: visit.teamID)
                let sources = traffic.sources.map { source in
                    RelaySourceRow(source, unregistered: site.text("console_relay_unregistered", visit.locale), locale: visit.locale, site: site)
                }
                let content = RelayContent(since: traffic.since.ISO8601Format(), sources: sources, hasSources: !sources.isEmpty)
                return try await site.render(visit, ConsolePage(template: "console_relay", section: "relay", content: content))
            }
        }
    }
}

struct RelaySourceRow: Sendable {
    struct Entry: Sendable {
        let at: String
        let outcome: String
        let label: String
        let sender: String
        let recipient: String
        let detail: String
    }

    struct Reason: Sendable {
        let reply: String
        let count: Int
    }

    /// The source's name as shown, and as the rows' ids say it (`unregistered` for the rest).
    let name: String
    let key: String
    let accepted: Int
    let refused: Int
    let bounced: Int
    let reasons: [Reason]
    let hasReasons: Bool
    let entries: [Entry]
    let hasEntries: Bool

    init(_ source: RelayTraffic.Source, unregistered: String, locale: String, site: ConsoleSite) {
        name = source.source ?? unregistered
        key = source.source ?? "unregistered"
        accepted = source.accepted
        refused = source.refused
        bounced = source.bounced
        reasons = source.reasons.map { Reason(reply: $0.reply, count: $0.count) }
        hasReasons = !reasons.isEmpty
        entries = source.latest.map { entry in
            Entry(
                at: entry.at.ISO8601Format(), outcome: entry.outcome.rawValue,
                label: site.text("console_relay_" + entry.outcome.rawValue, locale), sender: entry.sender, recipient: entry.recipient,
                detail: entry.detail)
        }
        hasEntries = !entries.isEmpty
    }
}

struct RelayContent: Sendable {
    let since: String
    let sources: [RelaySourceRow]
    let hasSources: Bool
}
