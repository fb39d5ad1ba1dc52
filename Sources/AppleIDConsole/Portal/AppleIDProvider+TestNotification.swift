import AppleIDProtocol
import AppleIDProvider
import Foundation

extension AppleIDProvider {
    /// The console's "Send test notification": a `test` event for the primary App ID, signed and
    /// delivered through the outbox exactly like a user's event (spec §10.2, §10.3), so the delivery
    /// log shows its status, latency and retries. Needs a registered endpoint to go to, and stays within
    /// ``ProviderConfiguration/notificationLimits``.
    public func sendTestNotification(groupID: ClientID, teamID: TeamID?) async throws -> OutboxMessage {
        guard let group = try await store.appGroup(groupID), teamID == nil || group.teamID == teamID else {
            throw ConsoleError.notFound("\(groupID) is not a primary App ID of this team.")
        }
        guard group.notificationEndpoint != nil else {
            throw ConsoleError.refused("Register a server-to-server notification endpoint for \(group.primaryAppID) first.")
        }
        let now = clock.now()
        try await checkTestNotificationLimits(group.primaryAppID, now: now)
        let event = NotificationEvent(
            type: .test, subject: NotificationEvent.testSubject, eventTime: Int64((now.timeIntervalSince1970 * 1000).rounded()))
        let message = OutboxMessage(
            id: Base64URL.encode(random.bytes(count: 16)), groupID: group.primaryAppID, audience: group.primaryAppID, event: event,
            createdAt: now)
        try await store.enqueue(message)
        logger.info("test notification queued", metadata: ["jti": "\(message.id)", "aud": "\(message.audience)"])
        return message
    }

    /// Refuses a test notification while the group's outbox is full or it sent too many just now.
    private func checkTestNotificationLimits(_ groupID: ClientID, now: Date) async throws {
        let limits = configuration.notificationLimits
        let usage = try await store.outboxUsage(groupID: groupID, createdSince: now.addingTimeInterval(-limits.window))
        guard usage.pending < limits.pendingPerGroup else {
            throw ConsoleError.refused(
                "\(usage.pending) notifications are waiting to be delivered to \(groupID)'s endpoint; send a test once they went out.")
        }
        guard usage.recent < limits.testNotificationsPerWindow else {
            let window = limits.window == 60 ? "a minute" : "every \(Int(limits.window)) seconds"
            throw ConsoleError.refused(
                "Send at most \(limits.testNotificationsPerWindow) test notifications \(window) for \(groupID); try again shortly.")
        }
    }
}
