import AppleIDProvider
import AppleIDServer
import Foundation

extension AppleIDEmulator {
    /// One server-to-server notification, as the server's delivery service would POST it.
    public struct DeliveredNotification: Sendable, Hashable {
        /// The request body: `{"payload": "<jwt>"}`, signed like every delivery of the server.
        public var body: [UInt8]
        /// The event's `type` on the wire, such as `consent-revoked`.
        public var type: String
        /// The event's `sub`.
        public var subject: String
    }

    /// Takes the notifications waiting in the outbox (the server's background delivery does not run in
    /// the emulator) and marks them delivered: POST each ``DeliveredNotification/body`` to the app's
    /// notification route. A second call returns only what was written since.
    public func takePendingNotifications() async throws -> [DeliveredNotification] {
        let now = provider.clock.now()
        var delivered: [DeliveredNotification] = []
        for message in try await provider.store.dueMessages(at: now, limit: 1000) {
            let body = try NotificationDelivery.requestBody(for: message, provider: provider)
            var sent = message
            sent.attempts += 1
            sent.deliveredAt = now
            let attempt = DeliveryAttempt(
                messageID: message.id, attemptedAt: now, status: 200, latencyMilliseconds: 0, error: nil, endpoint: "in-process test")
            try await provider.store.record(attempt, updating: sent)
            delivered.append(DeliveredNotification(body: body, type: message.event.type.rawValue, subject: message.event.subject))
        }
        return delivered
    }
}
