import AppleIDProtocol
import AppleIDProvider
import Foundation
import Logging

/// Two teams' notifications, one team's endpoint never answering: the set-up of the fairness tests
/// of the engine's delivery and of the server's delivery service.
package enum StarvedDelivery {
    package static let slowEndpoint = "https://slow.example.com/apple"
    package static let otherGroup: ClientID = "com.other.app"
    package static let otherEndpoint = "https://other.example.com/apple"

    /// Team A (the Juice group) with `pending` test notifications to an endpoint that never answers,
    /// all older than team B's one `consent-revoked`; with a delivery through a ``GatedSender`` that
    /// holds every post to A.
    package static func make(pending: Int) async throws -> (TestEngine, OutboxMessage, GatedSender, NotificationDelivery) {
        let server = try await TestEngine.make()
        try await server.arrange.plantNotificationEndpoint(slowEndpoint)
        try await server.arrange.plant(
            AppGroup(primaryAppID: otherGroup, teamID: TestEngine.otherTeamID, displayName: "Other", notificationEndpoint: otherEndpoint))
        for index in 0..<pending {
            try await server.arrange.plant(
                OutboxMessage(
                    id: "a\(index)", groupID: TestEngine.bundleID, audience: TestEngine.bundleID,
                    event: NotificationEvent(type: .test, subject: NotificationEvent.testSubject, eventTime: 0),
                    createdAt: server.clock.now().addingTimeInterval(Double(index) - 600)))
        }
        let revoked = OutboxMessage(
            id: "b0", groupID: otherGroup, audience: otherGroup, event: NotificationEvent(type: .consentRevoked, subject: "sub", eventTime: 0),
            createdAt: server.clock.now())
        try await server.arrange.plant(revoked)
        let sender = GatedSender(hangingURL: slowEndpoint)
        return (server, revoked, sender, NotificationDelivery(provider: server.provider, sender: sender, logger: Logger(label: "test")))
    }
}
