import AppleIDProtocol
import Foundation

extension AppleIDProvider {
    /// The newest `limit` notifications (of `groupID`, or of every group), newest first, each with its
    /// delivery attempts: a fixed number of store statements however many messages there are.
    public func deliveryLog(groupID: ClientID?, limit: Int) async throws -> [DeliveryLogEntry] {
        try await store.deliveryLog(groupID: groupID, limit: limit)
    }

    /// How many notifications wait for delivery, counted by the store (never loaded).
    public func pendingNotificationCount() async throws -> Int {
        try await store.pendingMessageCount()
    }
}
