import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// `POST /admin/faults`: development mode's fault switch (issue 20). Arms a one-shot defect in the
/// next token response for one client; the engine refuses it outside development mode.
/// `POST /admin/notifications`: a signed `consent-revoked` (genuine, or with one claim spoiled) for
/// `siwa check` to deliver to the app itself; development mode only.
struct AdminFaultEndpoints {
    let provider: AppleIDProvider

    struct FaultOrder: Decodable {
        var clientID: String
        var fault: TokenFault
        /// For `timeout`: how long the token endpoint stays silent (default 30 s, at most 600 s).
        var delaySeconds: Double?

        enum CodingKeys: String, CodingKey {
            case clientID = "client_id"
            case fault
            case delaySeconds = "delay_seconds"
        }
    }

    struct NotificationOrder: Decodable {
        var clientID: String
        var appleID: String
        var fault: NotificationFault?

        enum CodingKeys: String, CodingKey {
            case clientID = "client_id"
            case appleID = "apple_id"
            case fault
        }
    }

    static let longestDelay: Double = 600

    func register(on admin: RouterGroup<AppleIDRequestContext>) {
        admin.post("/faults") { request, context in
            let order = try await request.decode(as: FaultOrder.self, context: context)
            let delay = order.delaySeconds ?? 30
            guard (0...Self.longestDelay).contains(delay) else {
                throw AdminError.invalidRequest("delay_seconds must be between 0 and \(Int(Self.longestDelay))")
            }
            let armed = ArmedTokenFault(order.fault, delay: .milliseconds(Int64(delay * 1000)))
            return try await AdminClientEndpoints.answer {
                try await provider.armTokenFault(armed, for: ClientID(rawValue: order.clientID))
            }
        }
        admin.post("/notifications") { request, context in
            let order = try await request.decode(as: NotificationOrder.self, context: context)
            let notification = try await provider.developmentNotification(
                appleID: order.appleID, clientID: ClientID(rawValue: order.clientID), fault: order.fault)
            return try AdminEndpoints.json(["jti": notification.jwtID, "payload": notification.payload])
        }
        admin.delete("/faults/:client") { _, context in
            provider.disarmTokenFault(for: ClientID(rawValue: try context.parameters.requireDecoded("client")))
            return Response(status: .noContent)
        }
    }
}
