import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Admin calls for registered clients: Return URLs and per-client quirk switches.
struct AdminClientEndpoints {
    let provider: AppleIDProvider

    struct ReturnURLOrder: Decodable { var url: String }

    struct QuirksOrder: Decodable {
        var booleansAsStrings: Bool?
        var idTokenLifetime: Int?
        var deletionEvent: String?
        var issuer: String?
        var managedEmailVerifiedAsBoolean: Bool?
        enum CodingKeys: String, CodingKey {
            case issuer
            case managedEmailVerifiedAsBoolean = "managed_email_verified_as_boolean"
            case booleansAsStrings = "booleans_as_strings"
            case idTokenLifetime = "id_token_lifetime"
            case deletionEvent = "deletion_event"
        }
    }

    /// A client as the admin API shows it, in the API's snake_case.
    struct ClientView: Encodable {
        let clientID: String
        let kind: String
        let teamID: String
        let groupID: String
        let returnURLs: [String]
        let booleansAsStrings: Bool
        let idTokenLifetime: Int?
        let deletionEvent: String?
        let issuer: String?
        /// An App ID's associated domains for `webcredentials`.
        let webCredentialsDomains: [String]

        init(_ client: RegisteredClient) {
            clientID = client.id.rawValue
            kind = client.kind.rawValue
            teamID = client.teamID.rawValue
            groupID = client.groupID.rawValue
            returnURLs = client.returnURLs
            booleansAsStrings = client.quirks.booleanStyle == .string
            idTokenLifetime = client.quirks.idTokenLifetime
            deletionEvent = client.quirks.deletionEvent?.rawValue
            issuer = client.quirks.issuer
            webCredentialsDomains = client.webCredentialsDomains
        }

        enum CodingKeys: String, CodingKey {
            case kind, issuer
            case clientID = "client_id"
            case teamID = "team_id"
            case groupID = "group_id"
            case returnURLs = "return_urls"
            case booleansAsStrings = "booleans_as_strings"
            case idTokenLifetime = "id_token_lifetime"
            case deletionEvent = "deletion_event"
            case webCredentialsDomains = "webcredentials_domains"
        }
    }

    /// One request-log entry (the console's Requests page), newest first: `siwa check` reads why the
    /// app's token request was refused and whether it called /auth/revoke.
    struct RequestView: Encodable {
        let endpoint: String
        let at: Date
        let outcome: String
        let reason: String
        /// False for a request that did not prove its client (a wrong client secret: `invalid_client`).
        let proven: Bool

        init(_ entry: RequestLogEntry) {
            endpoint = entry.endpoint.rawValue
            at = entry.at
            outcome = entry.outcome
            reason = entry.reason
            proven = entry.isProven
        }
    }

    func register(on admin: RouterGroup<AppleIDRequestContext>) {
        admin.get("/clients/:client/requests") { _, context in
            let clientID = ClientID(rawValue: try context.parameters.requireDecoded("client"))
            let log = try await provider.requestLog(clientID: clientID, teamID: nil)
            let entries = (log.proven + log.unproven).sorted { $0.at > $1.at }
            return try AdminEndpoints.json(["requests": entries.map(RequestView.init)])
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
                issuer: order.issuer, managedEmailVerifiedAsBoolean: order.managedEmailVerifiedAsBoolean)
            return try await Self.answer { _ = try await provider.changeQuirks(clientID: clientID, changes) }
        }
    }

    /// Runs a registry change and answers 204 (a refusal renders itself, see ``AdminRefusalMiddleware``).
    static func answer(_ change: () async throws -> Void) async throws -> Response {
        try await change()
        return Response(status: .noContent)
    }
}
