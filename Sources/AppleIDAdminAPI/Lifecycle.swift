import AppleIDProtocol
import Foundation

/// `PUT /admin/app-groups/{group}/notification-endpoint`: `null` or absent removes it.
public struct EndpointChange: Codable, Sendable, Equatable {
    public var url: String?
    public init(url: String?) { self.url = url }
}

/// `POST /admin/users/{apple_id}/stop-using`: the app group the user stops using the Apple ID with.
public struct GroupAction: Codable, Sendable, Equatable {
    public var groupID: String
    public init(groupID: String) { self.groupID = groupID }
    enum CodingKeys: String, CodingKey { case groupID = "group_id" }
}

/// `POST /admin/users/{apple_id}/relay-forwarding`: Hide My Email forwarding for a team's relay address.
public struct ForwardingChange: Codable, Sendable, Equatable {
    public var teamID: String
    public var enabled: Bool

    public init(teamID: String, enabled: Bool) {
        self.teamID = teamID
        self.enabled = enabled
    }

    enum CodingKeys: String, CodingKey {
        case teamID = "team_id"
        case enabled
    }
}

/// A notification of the outbox as the delivery log shows it.
public struct DeliveryMessageView: Codable, Sendable, Equatable {
    /// Also the notification JWT's `jti`.
    public var id: String
    public var groupID: String
    /// The `aud`: the client ID of the group the user authorized.
    public var audience: String
    public var event: NotificationEvent
    public var createdAt: Date
    public var nextAttemptAt: Date
    public var attempts: Int
    public var deliveredAt: Date?
    /// Set when the retry budget ran out without a 2xx.
    public var abandonedAt: Date?

    public init(
        id: String, groupID: String, audience: String, event: NotificationEvent, createdAt: Date, nextAttemptAt: Date, attempts: Int,
        deliveredAt: Date?, abandonedAt: Date?
    ) {
        self.id = id
        self.groupID = groupID
        self.audience = audience
        self.event = event
        self.createdAt = createdAt
        self.nextAttemptAt = nextAttemptAt
        self.attempts = attempts
        self.deliveredAt = deliveredAt
        self.abandonedAt = abandonedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, audience, event, attempts
        case groupID = "group_id"
        case createdAt = "created_at"
        case nextAttemptAt = "next_attempt_at"
        case deliveredAt = "delivered_at"
        case abandonedAt = "abandoned_at"
    }
}

/// One try to deliver a notification: when, what came back, how long it took.
public struct DeliveryAttemptView: Codable, Sendable, Equatable {
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

    enum CodingKeys: String, CodingKey {
        case status, error, endpoint
        case messageID = "message_id"
        case attemptedAt = "attempted_at"
        case latencyMilliseconds = "latency_ms"
    }
}

/// A notification and every attempt to deliver it.
public struct DeliveryView: Codable, Sendable, Equatable {
    public var message: DeliveryMessageView
    public var attempts: [DeliveryAttemptView]

    public init(message: DeliveryMessageView, attempts: [DeliveryAttemptView]) {
        self.message = message
        self.attempts = attempts
    }
}

/// `GET /admin/deliveries`.
public struct DeliveryList: Codable, Sendable, Equatable {
    public var deliveries: [DeliveryView]
    public init(deliveries: [DeliveryView]) { self.deliveries = deliveries }
}
