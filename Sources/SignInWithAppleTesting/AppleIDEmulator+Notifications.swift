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

    /// Delivers the notifications waiting in the outbox (the server's background delivery does not
    /// run in the emulator), oldest first: the engine's delivery pass, with its leases and its rule that
    /// a 2xx answer means delivered, sends each to the emulated app's endpoint in process, which answers
    /// 200. POST each ``DeliveredNotification/body`` to the app's notification route. A second call
    /// returns only what was written since; a message another delivery pass is sending is left to it.
    public func deliveredNotifications() async throws -> [DeliveredNotification] {
        var policy = NotificationDelivery.Policy()
        // Everything due in one pass, as one call of the test expects.
        policy.batchSize = 1000
        policy.budgetPerGroup = 1000
        let delivery = NotificationDelivery(provider: provider, sender: InProcessNotificationSender(), policy: policy, logger: provider.logger)
        return try await delivery.deliverDueMessagesReporting().compactMap { report in
            guard report.delivered, let body = report.body else { return nil }
            return DeliveredNotification(body: body, type: report.message.event.type.rawValue, subject: report.message.event.subject)
        }
    }
}

/// The emulated app's notification endpoint: answers every POST with 200 without a connection; the
/// test hands the body to its own route.
struct InProcessNotificationSender: NotificationSender {
    func post(_ body: [UInt8], to destination: NotificationDestination, timeout: TimeInterval) async throws -> Int { 200 }
}
