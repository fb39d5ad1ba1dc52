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
        enum CodingKeys: String, CodingKey {
            case issuer
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
        }
    }

    func register(on admin: RouterGroup<AppleIDRequestContext>) {
        admin.get("/clients/:client") { _, context in
            guard let client = try await provider.store.client(ClientID(rawValue: try context.parameters.requireDecoded("client"))) else {
                return AdminEndpoints.explained(OAuthError(.invalidClient, status: 404, reason: "no such client"))
            }
            return try AdminEndpoints.json(ClientView(client))
        }
        // Adds a Return URL to a Services ID (idempotent): exact matching makes every port its own URL.
        admin.post("/clients/:client/return-urls") { request, context in
            let order = try await request.decode(as: ReturnURLOrder.self, context: context)
            guard let url = URL(string: order.url), ["http", "https"].contains(url.scheme ?? ""), url.host != nil, url.fragment == nil else {
                return AdminEndpoints.explained(.invalidRequest("a Return URL is an absolute http or https URL without a fragment"))
            }
            return try await change(context) { client in
                guard client.kind == .service else {
                    throw OAuthError.invalidRequest("\(client.id) is an App ID; Return URLs belong to Services IDs")
                }
                if !client.returnURLs.containsExactly(order.url) { client.returnURLs.append(order.url) }
            }
        }
        admin.put("/clients/:client/quirks") { request, context in
            let order = try await request.decode(as: QuirksOrder.self, context: context)
            return try await change(context) { client in
                if let strings = order.booleansAsStrings { client.quirks.booleanStyle = strings ? .string : .boolean }
                if let lifetime = order.idTokenLifetime {
                    guard ClientQuirks.idTokenLifetimes.contains(lifetime) else {
                        throw OAuthError.invalidRequest(
                            "id_token_lifetime is a number of seconds from \(ClientQuirks.idTokenLifetimes.lowerBound) to \(ClientQuirks.idTokenLifetimes.upperBound)"
                        )
                    }
                    client.quirks.idTokenLifetime = lifetime
                }
                if let spelling = order.deletionEvent {
                    let event = NotificationEventType(rawValue: spelling)
                    guard event.isAccountDeletion else { throw OAuthError.invalidRequest("deletion_event is account-delete or account-deleted") }
                    client.quirks.deletionEvent = event
                }
                if let issuer = order.issuer {
                    guard URL(string: issuer)?.host != nil else { throw OAuthError.invalidRequest("issuer must be an absolute URL") }
                    client.quirks.issuer = issuer
                }
            }
        }
    }

    /// Loads the client of the path, applies `edit`, saves it and drops the registry cache.
    private func change(_ context: AppleIDRequestContext, _ edit: (inout RegisteredClient) throws -> Void) async throws -> Response {
        let clientID = ClientID(rawValue: try context.parameters.requireDecoded("client"))
        guard var client = try await provider.store.client(clientID) else {
            return AdminEndpoints.explained(OAuthError(.invalidClient, status: 404, reason: "no client \(clientID)"))
        }
        do {
            try edit(&client)
        } catch let error as OAuthError {
            return AdminEndpoints.explained(error)
        }
        try await provider.store.save(client)
        provider.registryDidChange()
        return Response(status: .noContent)
    }
}
