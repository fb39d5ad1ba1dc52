import AppleIDProtocol
import AppleIDProvider
import Foundation

/// One message the private relay accepted for one recipient (spec §11), as it goes on: rewritten so
/// that the developer never sees the user's real address and the user's replies come back through
/// the relay.
public struct RelayMessage: Sendable, Hashable, Codable {
    /// Which way the message travels.
    public enum Direction: String, Sendable, Hashable, Codable {
        /// From a registered sender to a relay address, on to the Apple ID's real address.
        case forward
        /// From the user's real address to a reply alias, on to the original sender, from the relay address.
        case reply
        /// A delivery status notification (RFC 3464) about a message that could not be delivered.
        case bounce
        /// A message of the server's own to an outside address (a team invitation): through the
        /// smarthost, or held where the admin API shows it (``RelayMailQuery/address(_:)``). It belongs
        /// to no Apple ID and no team, so no mailbox or team traffic page lists it.
        case notice
    }

    public var id: String
    public var direction: Direction
    public var accountID: String
    public var teamID: TeamID
    /// The relay address the message belongs to (its mailbox, and its daily limit).
    public var relayAddress: String
    /// The envelope sender of the incoming message (for a bounce: `""`).
    public var originalSender: String
    /// The address the client sent to (RCPT TO): a relay address or a reply alias.
    public var recipient: String
    /// The envelope sender the message goes on with (a reply alias, the relay address, or `""`).
    public var envelopeSender: String
    /// Where the message goes: the Apple ID's real address, the original sender, or (a bounce) the
    /// sender of the undeliverable message.
    public var destination: String
    /// The `From` the message goes on with (rewritten) and its `Subject`.
    public var from: String
    public var subject: String
    public var receivedAt: Date
    /// Bytes of the source as it goes on.
    public var size: Int

    public init(
        id: String, direction: Direction, accountID: String, teamID: TeamID, relayAddress: String, originalSender: String,
        recipient: String, envelopeSender: String, destination: String, from: String, subject: String, receivedAt: Date, size: Int
    ) {
        self.id = id
        self.direction = direction
        self.accountID = accountID
        self.teamID = teamID
        self.relayAddress = relayAddress
        self.originalSender = originalSender
        self.recipient = recipient
        self.envelopeSender = envelopeSender
        self.destination = destination
        self.from = from
        self.subject = subject
        self.receivedAt = receivedAt
        self.size = size
    }
}

/// Where a relayed message is: its delivery record, written with the message.
public struct RelayDelivery: Sendable, Hashable, Codable {
    public enum State: String, Sendable, Hashable, Codable {
        /// In the built-in mailbox of the Apple ID (no smarthost): delivered.
        case mailbox
        /// For an outside address while no smarthost is configured: kept, for the admin API to show.
        case held
        /// Waiting for the smarthost (retried with backoff, across restarts).
        case queued
        /// The smarthost accepted it.
        case sent
        /// Could not be delivered; the sender was sent a bounce (unless it was one itself).
        case failed
    }

    public var messageID: String
    public var state: State
    public var attempts: Int
    /// When a queued delivery is next tried (or its lease ends).
    public var nextAttemptAt: Date?
    /// Why the last attempt failed, for the log and the admin API (the smarthost's reply).
    public var lastError: String?
    public var updatedAt: Date

    public init(messageID: String, state: State, attempts: Int = 0, nextAttemptAt: Date? = nil, lastError: String? = nil, updatedAt: Date) {
        self.messageID = messageID
        self.state = state
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastError = lastError
        self.updatedAt = updatedAt
    }
}

/// A message with its delivery record.
public struct RelayMail: Sendable, Hashable {
    public var message: RelayMessage
    public var delivery: RelayDelivery

    public init(message: RelayMessage, delivery: RelayDelivery) {
        self.message = message
        self.delivery = delivery
    }
}

/// What the relay writes when it accepts a message: the message, its content, its delivery record.
/// The content is read a chunk at a time as the store writes it.
public struct AcceptedRelayMail: Sendable {
    public var mail: RelayMail
    public var content: RelayMessageContent

    public init(mail: RelayMail, content: RelayMessageContent) {
        self.mail = mail
        self.content = content
    }

    /// A message held in memory (a bounce, tests).
    public init(mail: RelayMail, source: [UInt8]) {
        self.init(mail: mail, content: RelayMessageContent(source))
    }
}

/// The address a developer's mail appears to come from (`news_at_example_com_k3j9x2@privaterelay…`):
/// a reply to it goes back through the relay to `sender`, from the relay address.
public struct RelayReplyAlias: Sendable, Hashable, Codable {
    public var alias: String
    public var accountID: String
    public var teamID: TeamID
    public var relayAddress: String
    public var sender: String
    public var createdAt: Date

    public init(alias: String, accountID: String, teamID: TeamID, relayAddress: String, sender: String, createdAt: Date) {
        self.alias = alias
        self.accountID = accountID
        self.teamID = teamID
        self.relayAddress = relayAddress
        self.sender = sender
        self.createdAt = createdAt
    }
}

/// Which relayed messages to list.
public enum RelayMailQuery: Sendable, Hashable {
    /// Sent to the address (RCPT TO) or going to it (destination).
    case address(String)
    /// The Apple ID's mailbox: what was forwarded to it.
    case mailbox(accountID: String)
    /// Everything the team's senders sent, its users replied, and the bounces to its senders.
    case team(TeamID)
    case all
}

/// A recipient the relay refused, kept for the console's relay traffic page ("why did my mail not
/// arrive?"). Only refusals that name one of a team's relay addresses or reply aliases are kept:
/// mail to addresses nobody has says nothing to a team.
public struct RelayRefusalRecord: Sendable, Hashable, Codable {
    public var id: String
    public var teamID: TeamID
    /// The envelope sender (MAIL FROM) and recipient (RCPT TO), as given.
    public var sender: String
    public var recipient: String
    /// The SMTP reply, which says why (Apple's meaning).
    public var reply: String
    public var at: Date

    public init(id: String, teamID: TeamID, sender: String, recipient: String, reply: String, at: Date) {
        self.id = id
        self.teamID = teamID
        self.sender = sender
        self.recipient = recipient
        self.reply = reply
        self.at = at
    }
}
