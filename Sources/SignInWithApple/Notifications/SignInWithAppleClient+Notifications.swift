import Foundation

/// A verified notification, and whether it is new.
public enum ReceivedNotification: Sendable, Hashable {
    /// Seen for the first time: act on it.
    case new(AppleNotification)
    /// Its `jti` was seen before and has not expired: Apple delivered it twice, or somebody replays a
    /// captured one. Answer 200 and do nothing.
    case duplicate(AppleNotification)
}

extension SignInWithAppleClient {
    /// Verifies the body Apple POSTs to the notification endpoint (addressed to the primary App ID)
    /// and remembers its `jti` in the client's storage until it expires, so each is acted on once.
    public func receiveNotification(body: [UInt8]) async throws -> ReceivedNotification {
        let notification = try await notifications.verify(body: body)
        let now = clock()
        let isNew = try await storage.insert(
            [], forKey: SealedEntry.key(.notification, secret: notification.audience + "\u{0}" + notification.id),
            expiresAt: notification.replayWindowEnd.addingTimeInterval(configuration.leeway), now: now)
        return isNew ? .new(notification) : .duplicate(notification)
    }

    /// Forgets that `notification` was seen, so that Apple's next delivery of it is ``ReceivedNotification/new(_:)``
    /// again: call it when acting on the notification failed (the route helpers do).
    public func forget(_ notification: AppleNotification) async throws {
        _ = try await storage.take(SealedEntry.key(.notification, secret: notification.audience + "\u{0}" + notification.id))
    }

    /// Verifies a notification body without remembering it (see ``receiveNotification(body:)``).
    public func verifyNotification(body: [UInt8]) async throws -> AppleNotification {
        try await notifications.verify(body: body)
    }
}
