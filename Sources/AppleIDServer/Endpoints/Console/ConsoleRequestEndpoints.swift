import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Requests (beyond Apple): the last requests per client ID to `/auth/authorize`, `/auth/token` and
/// `/auth/revoke`, each with its result and, for a refusal, the precise reason. The reasons name
/// rules and safe values only; secrets, tokens and codes are never recorded. Requests that did not
/// prove their client (anyone can name a client ID) are listed apart, below.
struct ConsoleRequestEndpoints {
    let site: ConsoleSite

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/console/requests") { request, _ in
            try await site.page(request) { visit in
                let clients = try await visit.console.clients()
                let chosen =
                    request.uri.queryParameters["client_id"].map { ClientID(rawValue: String($0)) }
                    ?? clients.first { $0.kind == .service }?.id ?? clients.first?.id
                var log = RequestLog()
                if let chosen, clients.contains(where: { $0.id == chosen }) {
                    log = try await visit.console.requestLog(clientID: chosen)
                }
                let content = RequestsContent(
                    clients: clients.map { PrimaryChoice(id: $0.id.rawValue, selected: $0.id == chosen) }, entries: log.proven.map(RequestRow.init),
                    hasEntries: !log.proven.isEmpty, unproven: log.unproven.map(RequestRow.init), hasUnproven: !log.unproven.isEmpty,
                    clientID: chosen?.rawValue ?? "")
                return try await site.render(visit, ConsolePage(template: "console_requests", section: "requests", content: content))
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
    /// Requests that named the client without proving it: anyone's, shown apart.
    let unproven: [RequestRow]
    let hasUnproven: Bool
    let clientID: String
}
