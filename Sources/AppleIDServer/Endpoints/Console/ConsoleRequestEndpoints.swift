import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Requests (beyond Apple): the last requests per client ID to `/auth/authorize`, `/auth/token` and
/// `/auth/revoke`, each with its result and, for a refusal, the precise reason. The reasons name
/// rules and safe values only; secrets, tokens and codes are never recorded.
struct ConsoleRequestEndpoints {
    let site: ConsoleSite

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/console/requests") { request, _ in
            try await site.page(request) { visit in
                let clients = try await site.provider.store.clients(teamID: visit.teamID)
                let chosen =
                    request.uri.queryParameters["client_id"].map { ClientID(rawValue: String($0)) }
                    ?? clients.first { $0.kind == .service }?.id ?? clients.first?.id
                var entries: [RequestRow] = []
                if let chosen, clients.contains(where: { $0.id == chosen }) {
                    entries = try await site.provider.requestLog(clientID: chosen, teamID: visit.teamID).map(RequestRow.init)
                }
                let content = RequestsContent(
                    clients: clients.map { PrimaryChoice(id: $0.id.rawValue, selected: $0.id == chosen) }, entries: entries,
                    hasEntries: !entries.isEmpty, clientID: chosen?.rawValue ?? "")
                return try site.render(visit, template: "console_requests", section: "requests", content: content)
            }
        }
    }
}

struct RequestRow: Sendable {
    let at: String
    let endpoint: String
    let outcome: String
    let succeeded: Bool
    let reason: String

    init(_ entry: RequestLogEntry) {
        at = entry.at.ISO8601Format()
        endpoint = "/auth/" + entry.endpoint.rawValue
        outcome = entry.outcome
        succeeded = entry.succeeded
        reason = entry.reason
    }
}

struct RequestsContent: Sendable {
    let clients: [PrimaryChoice]
    let entries: [RequestRow]
    let hasEntries: Bool
    let clientID: String
}
