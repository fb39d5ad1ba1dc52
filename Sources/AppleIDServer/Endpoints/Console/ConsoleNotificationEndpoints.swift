import AppleIDConsole
import AppleIDEmailSources
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Notifications and e-mail: the server-to-server endpoint per primary App ID with its delivery log,
/// and the e-mail sources of the private relay (spec §10.1, §11).
struct ConsoleNotificationEndpoints {
    let site: ConsoleSite

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/console/notifications") { request, _ in
            try await site.page(request) { visit in try await site.show(visit, page) }
        }
        router.post("/console/notifications/endpoint") { request, _ in
            try await site.action(request, page: page) { visit, form in
                let group = try await site.provider.setNotificationEndpoint(
                    form.url, groupID: ClientID(rawValue: form.groupID ?? ""), teamID: visit.teamID)
                return try await site.show(
                    visit, page, message: site.text("console_endpoint_saved", visit.locale, values: ["id": group.primaryAppID.rawValue]))
            }
        }
        router.post("/console/notifications/test") { request, _ in
            try await site.action(request, page: page) { visit, form in
                let message = try await site.provider.sendTestNotification(groupID: ClientID(rawValue: form.groupID ?? ""), teamID: visit.teamID)
                return try await site.show(
                    visit, page, message: site.text("console_test_notification_queued", visit.locale, values: ["id": message.audience.rawValue]))
            }
        }
        router.post("/console/email-sources") { request, _ in
            try await site.action(request, page: page) { visit, form in
                _ = try await site.provider.addEmailSources(form.sources ?? "", teamID: visit.teamID)
                return try await site.show(visit, page, message: site.text("console_sources_added", visit.locale))
            }
        }
        router.post("/console/email-sources/check") { request, _ in
            try await site.action(request, page: page) { visit, _ in
                _ = try await site.provider.checkEmailSources(teamID: visit.teamID)
                return try await site.show(visit, page, message: site.text("console_sources_checked", visit.locale))
            }
        }
        router.post("/console/email-sources/dkim") { request, _ in
            try await site.action(request, page: page) { visit, form in
                try await site.provider.setDKIMKey(form.dkim, forEmailSource: form.value ?? "", teamID: visit.teamID)
                return try await site.show(visit, page, message: site.text("console_dkim_saved", visit.locale))
            }
        }
        router.post("/console/email-sources/remove") { request, _ in
            try await site.action(request, page: page) { visit, form in
                try await site.provider.removeEmailSource(form.value ?? "", teamID: visit.teamID)
                return try await site.show(visit, page, message: site.text("console_source_removed", visit.locale))
            }
        }
    }

    /// The page; after a refusal, the endpoint typed stays in its group's field and the sources typed in theirs.
    private func page(_ visit: ConsoleSite.Visit, kept: ConsoleForm?) async throws -> ConsolePage {
        let groups = try await visit.console.notificationEndpoints().map { log in
            let typed = WireMatch.exact(kept?.groupID, log.group.primaryAppID.rawValue) ? kept?.url : nil
            let deliveries = log.deliveries.map(DeliveryRow.init)
            return EndpointRow(
                id: log.group.primaryAppID.rawValue, endpoint: typed ?? log.group.notificationEndpoint ?? "",
                hasEndpoint: log.group.notificationEndpoint != nil, deliveries: deliveries, hasDeliveries: !deliveries.isEmpty)
        }
        let sources = try await visit.console.emailSources().map {
            SourceRow(
                value: $0.value, kind: $0.isAddress ? "address" : "domain", status: $0.check.rawValue,
                check: site.text("console_check_" + $0.check.rawValue.replacingOccurrences(of: "-", with: "_"), visit.locale),
                checkedAt: $0.checkedAt?.ISO8601Format() ?? "", dkim: $0.dkimPublicKey != nil)
        }
        let content = NotificationsContent(
            groups: groups, sources: sources, hasSources: !sources.isEmpty, sourceCount: sources.count,
            sourceLimit: visit.team.kind.emailSourceLimit, typedSources: kept?.sources ?? "")
        return ConsolePage(template: "console_notifications", section: "notifications", content: content)
    }
}

struct DeliveryRow: Sendable {
    let event: String
    let createdAt: String
    let attempts: Int
    /// Attempts after the first.
    let retries: Int
    let state: String
    let lastStatus: String
    /// How long the last answer took; a dash when no answer came (nothing sent, or no reply).
    let latency: String

    init(_ entry: DeliveryLogEntry) {
        let (message, attempts) = (entry.message, entry.attempts)
        event = message.event.type.rawValue
        createdAt = message.createdAt.ISO8601Format()
        self.attempts = attempts.count
        retries = max(attempts.count - 1, 0)
        state = message.deliveredAt != nil ? "delivered" : message.abandonedAt != nil ? "abandoned" : "pending"
        lastStatus = attempts.last?.status.map(String.init) ?? attempts.last?.error ?? ""
        // An attempt without an HTTP status measured no answer: its "0 ms" would read as a fast reply.
        latency = attempts.last.flatMap { attempt in attempt.status.map { _ in "\(attempt.latencyMilliseconds) ms" } } ?? "—"
    }
}

struct EndpointRow: Sendable {
    let id: String
    let endpoint: String
    let hasEndpoint: Bool
    let deliveries: [DeliveryRow]
    let hasDeliveries: Bool
}

struct SourceRow: Sendable {
    let value: String
    let kind: String
    /// The check's wire name (`verified`, `spf-missing`, …), for the row's class.
    let status: String
    /// The check as the page's language says it.
    let check: String
    let checkedAt: String
    /// Whether the relay requires the source's mail to carry a DKIM signature.
    let dkim: Bool
}

struct NotificationsContent: Sendable {
    let groups: [EndpointRow]
    let sources: [SourceRow]
    let hasSources: Bool
    let sourceCount: Int
    let sourceLimit: Int
    /// The sources of a refused "Add", as typed.
    let typedSources: String
}
