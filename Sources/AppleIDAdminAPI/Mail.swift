import Foundation

/// A message of the private relay as the admin API lists it (`GET /admin/mail`).
public struct MailSummary: Codable, Sendable, Equatable {
    public var id: String
    /// `inbound` (to a relay address) or `outbound` (a reply through an alias).
    public var direction: String
    public var to: String
    public var destination: String
    public var relayAddress: String
    public var from: String
    public var subject: String
    public var receivedAt: Date
    public var size: Int
    public var delivery: String
    public var attempts: Int
    public var lastError: String?

    public init(
        id: String, direction: String, to: String, destination: String, relayAddress: String, from: String, subject: String, receivedAt: Date,
        size: Int, delivery: String, attempts: Int, lastError: String?
    ) {
        self.id = id
        self.direction = direction
        self.to = to
        self.destination = destination
        self.relayAddress = relayAddress
        self.from = from
        self.subject = subject
        self.receivedAt = receivedAt
        self.size = size
        self.delivery = delivery
        self.attempts = attempts
        self.lastError = lastError
    }

    enum CodingKeys: String, CodingKey {
        case id, direction, to, destination, from, subject, size, delivery, attempts
        case relayAddress = "relay_address"
        case receivedAt = "received_at"
        case lastError = "last_error"
    }
}

/// `GET /admin/mail`, newest first (with `wait`: once one lands, or none when the wait ran out).
public struct MailList: Codable, Sendable, Equatable {
    public var messages: [MailSummary]
    public init(messages: [MailSummary]) { self.messages = messages }
}

/// `GET /admin/mail/{id}`: one message, raw and parsed.
public struct MailDetail: Codable, Sendable, Equatable {
    public struct Header: Codable, Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public var message: MailSummary
    public var headers: [Header]
    public var body: String
    /// The source as it went on (bytes that are not UTF-8 replaced); `raw_base64` is exact.
    public var raw: String
    public var rawBase64: String

    public init(message: MailSummary, headers: [Header], body: String, raw: String, rawBase64: String) {
        self.message = message
        self.headers = headers
        self.body = body
        self.raw = raw
        self.rawBase64 = rawBase64
    }

    enum CodingKeys: String, CodingKey {
        case message, headers, body, raw
        case rawBase64 = "raw_base64"
    }
}
