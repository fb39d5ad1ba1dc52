import Foundation

/// Bounds on what a team can queue by "Send test notification", so that one team cannot fill the
/// outbox (and the deliverers' time) at the expense of the others.
public struct NotificationLimits: Sendable, Hashable {
    /// Test notifications are refused while this many messages of the group wait undelivered.
    public var pendingPerGroup = 20
    /// At most this many messages per group per ``window``, counting every message the group got in
    /// the window (a burst of users' events holds the test button back for a moment too).
    public var testNotificationsPerWindow = 5
    public var window: TimeInterval = 60

    public init() {}
}

/// How much of the outbox one app group uses.
public struct OutboxUsage: Sendable, Hashable {
    /// Messages neither delivered nor abandoned.
    public var pending: Int
    /// Messages created at or after the moment asked about.
    public var recent: Int

    public init(pending: Int, recent: Int) {
        self.pending = pending
        self.recent = recent
    }
}
