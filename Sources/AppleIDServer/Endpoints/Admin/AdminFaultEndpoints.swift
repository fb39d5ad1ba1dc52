import AppleIDAdminAPI
import AppleIDDevelopmentFaults
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// `POST /admin/reset`: back to the seeded state; development mode only.
/// `POST /admin/faults`: development mode's fault switch (issue 20). Arms a one-shot defect in the
/// next token response for one client; the engine refuses it outside development mode.
/// `POST /admin/notifications`: a signed `consent-revoked` or account deletion (genuine, or with one claim spoiled) for
/// `siwa check` to deliver to the app itself; development mode only.
struct AdminFaultEndpoints {
    let provider: AppleIDProvider

    static let longestDelay: Double = 600

    func register(on admin: RouterGroup<AppleIDRequestContext>) {
        // Back to the seeded state (issue 36): what a test calls before it starts.
        admin.post("/reset") { _, _ in
            try await provider.reset()
            return Response(status: .noContent)
        }
        admin.post("/faults") { request, context in
            let order = try await request.decode(as: FaultOrder.self, context: context)
            let delay = order.delaySeconds ?? 30
            guard (0...Self.longestDelay).contains(delay) else {
                throw AdminError.invalidRequest("delay_seconds must be between 0 and \(Int(Self.longestDelay))")
            }
            guard let fault = TokenFault(rawValue: order.fault) else {
                throw AdminError.invalidRequest("fault is one of \(TokenFault.allCases.map(\.rawValue).joined(separator: ", ")), not \(order.fault)")
            }
            let armed = ArmedTokenFault(fault, delay: .milliseconds(Int64(delay * 1000)))
            return try await AdminClientEndpoints.answer {
                try await provider.armTokenFault(armed, for: ClientID(rawValue: order.clientID))
            }
        }
        admin.post("/notifications") { request, context in
            let order = try await request.decode(as: NotificationOrder.self, context: context)
            let fault = try order.fault.map { name in
                guard let fault = NotificationFault(rawValue: name) else {
                    throw AdminError.invalidRequest(
                        "fault is one of \(NotificationFault.allCases.map(\.rawValue).joined(separator: ", ")), not \(name)")
                }
                return fault
            }
            let notification = try await provider.developmentNotification(
                appleID: order.appleID, clientID: ClientID(rawValue: order.clientID),
                event: NotificationEventType(rawValue: order.event ?? NotificationEventType.consentRevoked.rawValue), fault: fault)
            return try AdminEndpoints.json(NotificationView(jti: notification.jwtID, payload: notification.payload))
        }
        admin.delete("/faults/:client") { _, context in
            provider.disarmTokenFault(for: ClientID(rawValue: try context.parameters.requireDecoded("client")))
            return Response(status: .noContent)
        }
    }
}
