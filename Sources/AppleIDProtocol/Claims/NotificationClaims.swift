import Foundation

/// The `type` of a server-to-server notification event (spec §10.4). Unknown types are kept.
public struct NotificationEventType: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The user turned off forwarding to their inbox for the relay address.
    public static let emailDisabled = NotificationEventType(rawValue: "email-disabled")
    /// The user turned forwarding back on.
    public static let emailEnabled = NotificationEventType(rawValue: "email-enabled")
    /// The user stopped using Sign in with Apple with the app.
    public static let consentRevoked = NotificationEventType(rawValue: "consent-revoked")
    /// The user deleted their Apple ID: the spelling of older Apple documents and every library.
    public static let accountDelete = NotificationEventType(rawValue: "account-delete")
    /// The user deleted their Apple ID: the spelling of Apple's current document (spec §19 #1).
    public static let accountDeleted = NotificationEventType(rawValue: "account-deleted")

    /// A test the developer sent from the console (our extension: Apple's portal has no such button
    /// for Sign in with Apple). Its `sub` is ``NotificationEvent/testSubject``, never a user's.
    public static let test = NotificationEventType(rawValue: "test")

    /// Either spelling of the account-deletion event.
    public var isAccountDeletion: Bool { self == .accountDelete || self == .accountDeleted }
}

/// One event of a notification: `type`, `sub`, `event_time`, and for the e-mail events the relay
/// address and `is_private_email`.
public struct NotificationEvent: Sendable, Hashable, Codable {
    public var type: NotificationEventType
    public var subject: String
    /// Milliseconds since 1970 on the wire (Apple's documentation shows seconds; see ``eventDate``).
    public var eventTime: Int64
    public var email: String?
    public var isPrivateEmail: BooleanClaim?

    public init(type: NotificationEventType, subject: String, eventTime: Int64, email: String? = nil, isPrivateEmail: BooleanClaim? = nil) {
        self.type = type
        self.subject = subject
        self.eventTime = eventTime
        self.email = email
        self.isPrivateEmail = isPrivateEmail
    }

    /// The `sub` of a ``NotificationEventType/test`` event: no user is involved.
    public static let testSubject = "test"

    /// The event's time. Values below 10¹¹ can only be seconds (that many milliseconds is 1973), so
    /// both the wire's milliseconds and the documented seconds read right.
    public var eventDate: Date {
        eventTime < 100_000_000_000
            ? Date(timeIntervalSince1970: TimeInterval(eventTime)) : Date(timeIntervalSince1970: TimeInterval(eventTime) / 1000)
    }

    enum CodingKeys: String, CodingKey {
        case type
        case subject = "sub"
        case eventTime = "event_time"
        case email
        case isPrivateEmail = "is_private_email"
    }
}

/// The claims of a notification JWT (spec §10.3). `events` is a JSON string on the wire, an object
/// in Apple's documentation and an array in the WWDC session: all three decode.
public struct NotificationClaims: Sendable, Hashable, Decodable {
    public var issuer: String
    public var audience: String
    public var issuedAt: Int
    public var expiresAt: Int?
    public var jwtID: String
    public var events: [NotificationEvent]

    enum CodingKeys: String, CodingKey {
        case issuer = "iss"
        case audience = "aud"
        case issuedAt = "iat"
        case expiresAt = "exp"
        case jwtID = "jti"
        case events
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        issuer = try container.decode(String.self, forKey: .issuer)
        audience = try container.decode(String.self, forKey: .audience)
        issuedAt = try container.decode(Int.self, forKey: .issuedAt)
        expiresAt = try container.decodeIfPresent(Int.self, forKey: .expiresAt)
        jwtID = try container.decode(String.self, forKey: .jwtID)
        if let text = try? container.decode(String.self, forKey: .events) {
            let data = Data(text.utf8)
            if let single = try? JSONDecoder().decode(NotificationEvent.self, from: data) {
                events = [single]
            } else {
                events = try JSONDecoder().decode([NotificationEvent].self, from: data)
            }
        } else if let object = try? container.decode(NotificationEvent.self, forKey: .events) {
            events = [object]
        } else {
            events = try container.decode([NotificationEvent].self, forKey: .events)
        }
    }
}
