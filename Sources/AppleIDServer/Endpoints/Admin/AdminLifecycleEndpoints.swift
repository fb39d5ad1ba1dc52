import AppleIDAdminAPI
import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Admin calls for the account lifecycle: register an app group's notification endpoint, perform a
/// user's actions (stop using, relay forwarding, delete), and read the delivery log.
struct AdminLifecycleEndpoints {
    let provider: AppleIDProvider

    func register(on admin: RouterGroup<AppleIDRequestContext>) {
        admin.put("/app-groups/:group/notification-endpoint") { request, context in
            let groupID = ClientID(rawValue: try context.parameters.requireDecoded("group"))
            let change = try await request.decode(as: EndpointChange.self, context: context)
            return try await AdminClientEndpoints.answer { _ = try await provider.setNotificationEndpoint(change.url, groupID: groupID, teamID: nil) }
        }
        admin.post("/users/:appleID/stop-using") { request, context in
            let action = try await request.decode(as: GroupAction.self, context: context)
            return try await perform(context) {
                try await provider.lifecycle.stopUsing(accountID: $0.id, groupID: ClientID(rawValue: action.groupID))
            }
        }
        admin.post("/users/:appleID/relay-forwarding") { request, context in
            let change = try await request.decode(as: ForwardingChange.self, context: context)
            return try await perform(context) {
                try await provider.lifecycle.setRelayForwarding(accountID: $0.id, teamID: TeamID(rawValue: change.teamID), enabled: change.enabled)
            }
        }
        admin.delete("/users/:appleID") { _, context in
            try await perform(context) { try await provider.lifecycle.deleteAccount(accountID: $0.id) }
        }
        admin.get("/deliveries") { request, _ in
            let groupID = request.uri.queryParameters.get("group_id").map { ClientID(rawValue: $0) }
            let log = try await provider.deliveryLog(groupID: groupID, limit: 200)
            return try AdminEndpoints.json(DeliveryList(deliveries: log.map(DeliveryView.init)))
        }
    }

    private func perform(_ context: AppleIDRequestContext, _ action: (AppleIDAccount) async throws -> Void) async throws -> Response {
        let appleID = try context.parameters.requireDecoded("appleID")
        guard let account = try await provider.activeAccount(appleID: appleID) else { throw AdminError.notFound("no Apple ID \(appleID)") }
        try await action(account)
        return Response(status: .noContent)
    }
}

extension DeliveryView {
    init(_ entry: DeliveryLogEntry) {
        let message = entry.message
        self.init(
            message: DeliveryMessageView(
                id: message.id, groupID: message.groupID.rawValue, audience: message.audience.rawValue, event: message.event,
                createdAt: message.createdAt, nextAttemptAt: message.nextAttemptAt, attempts: message.attempts, deliveredAt: message.deliveredAt,
                abandonedAt: message.abandonedAt),
            attempts: entry.attempts.map {
                DeliveryAttemptView(
                    messageID: $0.messageID, attemptedAt: $0.attemptedAt, status: $0.status, latencyMilliseconds: $0.latencyMilliseconds,
                    error: $0.error, endpoint: $0.endpoint)
            })
    }
}
