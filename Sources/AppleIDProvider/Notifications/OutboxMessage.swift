import AppleIDProtocol
import Foundation

/// A server-to-server notification waiting to be delivered (or delivered), written in the same
/// transaction as the state change it reports, so neither exists without the other.
public struct OutboxMessage: Sendable, Hashable, Identifiable {
    /// Also the notification JWT's `jti`: a redelivery carries the same one, so receivers can dedupe.
    public var id: String
    public var groupID: ClientID
    /// The `aud`: the client ID of the group the user authorized.
    public var audience: ClientID
    public var event: NotificationEvent
    public var createdAt: Date
    public var nextAttemptAt: Date
    public var attempts: Int
    public var deliveredAt: Date?
    /// Set when the retry budget ran out without a 2xx.
    public var abandonedAt: Date?

    public init(
        id: String, groupID: ClientID, audience: ClientID, event: NotificationEvent, createdAt: Date, nextAttemptAt: Date? = nil,
        attempts: Int = 0, deliveredAt: Date? = nil, abandonedAt: Date? = nil
    ) {
        self.id = id
        self.groupID = groupID
        self.audience = audience
        self.event = event
        self.createdAt = createdAt
        self.nextAttemptAt = nextAttemptAt ?? createdAt
        self.attempts = attempts
        self.deliveredAt = deliveredAt
        self.abandonedAt = abandonedAt
    }

    public var isPending: Bool { deliveredAt == nil && abandonedAt == nil }
}

/// One try to deliver a message: when, what came back, how long it took.
public struct DeliveryAttempt: Sendable, Hashable {
    public var messageID: String
    public var attemptedAt: Date
    /// The HTTP status, when the endpoint answered.
    public var status: Int?
    public var latencyMilliseconds: Int
    /// Why it failed (timeout, refused connection, non-2xx), never the payload.
    public var error: String?
    public var endpoint: String

    public init(messageID: String, attemptedAt: Date, status: Int?, latencyMilliseconds: Int, error: String?, endpoint: String) {
        self.messageID = messageID
        self.attemptedAt = attemptedAt
        self.status = status
        self.latencyMilliseconds = latencyMilliseconds
        self.error = error
        self.endpoint = endpoint
    }

    public var succeeded: Bool { status.map { (200..<300).contains($0) } ?? false }
}

/// A position in a group's outbox: the (creation time, id) of the last message seen. Its text form
/// is what the credential-event feed hands out and takes back.
public struct OutboxCursor: Sendable, Hashable {
    public var createdAt: Date
    public var messageID: String

    public init(createdAt: Date, messageID: String) {
        self.createdAt = createdAt
        self.messageID = messageID
    }

    public init(after message: OutboxMessage) { self.init(createdAt: message.createdAt, messageID: message.id) }

    /// `<seconds since 1970>_<message id>`; the seconds are written so that they read back exactly.
    public var text: String { "\(createdAt.timeIntervalSince1970)_\(messageID)" }

    public init?(text: String) {
        guard let separator = text.firstIndex(of: "_"), let seconds = Double(text[..<separator]), seconds.isFinite else { return nil }
        let id = String(text[text.index(after: separator)...])
        guard !id.isEmpty else { return nil }
        self.init(createdAt: Date(timeIntervalSince1970: seconds), messageID: id)
    }

    /// Whether `message` comes after this cursor.
    public func precedes(_ message: OutboxMessage) -> Bool {
        (createdAt, messageID) < (message.createdAt, message.id)
    }
}
