import AppleIDAdminAPI
import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Admin calls for registered clients: Return URLs and per-client quirk switches.
struct AdminClientEndpoints {
    let provider: AppleIDProvider

    func register(on admin: RouterGroup<AppleIDRequestContext>) {
        admin.get("/clients/:client/requests") { _, context in
            let clientID = ClientID(rawValue: try context.parameters.requireDecoded("client"))
            let log = try await provider.requestLog(clientID: clientID, teamID: nil)
            let entries = (log.proven + log.unproven).sorted { $0.at > $1.at }
            return try AdminEndpoints.json(RequestList(requests: entries.map(RequestView.init)))
        }
        admin.get("/clients/:client") { _, context in
            guard let client = try await provider.registeredClient(ClientID(rawValue: try context.parameters.requireDecoded("client"))) else {
                throw AdminError.notFound("no such client", code: .invalidClient)
            }
            return try AdminEndpoints.json(ClientView(client))
        }
        // Adds a Return URL to a Services ID (idempotent), by the engine's rules (spec §12).
        admin.post("/clients/:client/return-urls") { request, context in
            let order = try await request.decode(as: ReturnURLOrder.self, context: context)
            let clientID = ClientID(rawValue: try context.parameters.requireDecoded("client"))
            return try await Self.answer { _ = try await provider.addReturnURL(order.url, servicesID: clientID) }
        }
        admin.put("/clients/:client/quirks") { request, context in
            let order = try await request.decode(as: QuirksOrder.self, context: context)
            let clientID = ClientID(rawValue: try context.parameters.requireDecoded("client"))
            let changes = QuirkChanges(
                booleansAsStrings: order.booleansAsStrings, idTokenLifetime: order.idTokenLifetime, deletionEvent: order.deletionEvent,
                issuer: order.issuer, managedEmailVerifiedAsBoolean: order.managedEmailVerifiedAsBoolean, appleAsOf: order.appleAsOf)
            return try await Self.answer { _ = try await provider.changeQuirks(clientID: clientID, changes) }
        }
    }

    /// Runs a registry change and answers 204 (a refusal renders itself, see ``AdminRefusalMiddleware``).
    static func answer(_ change: () async throws -> Void) async throws -> Response {
        try await change()
        return Response(status: .noContent)
    }
}

extension ClientView {
    init(_ client: RegisteredClient) {
        self.init(
            clientID: client.id.rawValue, kind: client.kind.rawValue, teamID: client.teamID.rawValue, groupID: client.groupID.rawValue,
            returnURLs: client.returnURLs, booleansAsStrings: client.quirks.booleanStyle.map { $0 == .string },
            idTokenLifetime: client.quirks.idTokenLifetime,
            deletionEvent: client.quirks.deletionEvent?.rawValue, issuer: client.quirks.issuer, webCredentialsDomains: client.webCredentialsDomains,
            appleAsOf: client.quirks.appleAsOf?.description)
    }
}

extension RequestView {
    init(_ entry: RequestLogEntry) {
        self.init(endpoint: entry.endpoint.rawValue, at: entry.at, outcome: entry.outcome, reason: entry.reason, proven: entry.isProven)
    }
}
