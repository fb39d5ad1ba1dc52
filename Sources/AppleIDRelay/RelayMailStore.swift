import AppleIDProtocol
import AppleIDProvider
import Foundation

/// The private relay's storage: reply aliases, relayed messages and their delivery records (the
/// mailboxes and the smarthost queue), and refusals. Written by ``MailRelay`` only; each part is
/// what one of its jobs uses. The memory store and the SQL stores implement all of them.
public typealias RelayMailStore = RelayAcceptStore & RelayDeliveryQueueStore & RelayMailboxStore & RelayRetentionStore

/// Taking mail in: the routing rules' counts and aliases, and the accepted messages.
public protocol RelayAcceptStore: Sendable {
    func replyAlias(_ alias: String) async throws -> RelayReplyAlias?
    /// Inserts the alias unless one exists for its relay address and sender; returns the stored one,
    /// so that two messages from one sender racing agree on one alias.
    func insertReplyAlias(_ alias: RelayReplyAlias) async throws -> RelayReplyAlias
    /// How many forwards and replies of the relay address were received after `date` (a message
    /// received exactly a day ago no longer counts against the daily limit).
    func relayMessageCount(relayAddress: String, since date: Date) async throws -> Int
    /// Writes every message with its content and delivery record in one transaction: all or none.
    /// The content is read and written a chunk at a time (``RelayMessageChunk``), never whole.
    /// With a daily limit, counts each relay address's forwards and replies (``relayMessageCount``)
    /// with the batch's own in the same step; with a team quota, adds each team's stored bytes
    /// (``relayStoredBytes(teamID:)``) to the batch's. When one would pass its limit, writes nothing
    /// and answers which: sessions racing for an address's last message of the day, or a team's last
    /// megabytes, cannot all get them.
    func accept(_ mail: [AcceptedRelayMail], limits: RelayAcceptLimits) async throws -> RelayAcceptance
    /// The bytes of relayed mail the team has stored, every direction.
    func relayStoredBytes(teamID: TeamID) async throws -> Int
    func recordRelayRefusal(_ refusal: RelayRefusalRecord) async throws
}

/// The smarthost queue: due deliveries, one attempt at a time across instances.
public protocol RelayDeliveryQueueStore: Sendable {
    /// Queued deliveries due at `now`, oldest first.
    func dueRelayDeliveries(at now: Date, limit: Int) async throws -> [RelayDelivery]
    /// Takes a due delivery for one attempt: moves its next attempt to `leaseUntil` if it is still
    /// queued and due at `now`. Of concurrent callers (several instances) exactly one gets `true`.
    func claimRelayDelivery(messageID: String, now: Date, leaseUntil: Date) async throws -> Bool
    /// Records the outcome of an attempt, and the bounce it caused, in one transaction.
    func record(_ delivery: RelayDelivery, bounce: AcceptedRelayMail?) async throws
}

/// Reading the mailboxes and the refusals (the account pages, the console, the admin API).
public protocol RelayMailboxStore: Sendable {
    /// Newest first.
    func relayMail(_ query: RelayMailQuery, limit: Int) async throws -> [RelayMail]
    func relayMail(id: String) async throws -> RelayMail?
    /// Lends `body` the stored message's bytes in order, a stored chunk at a time, reading one chunk
    /// per statement: a message is never loaded whole to be sent. With `limit`, stops after the
    /// chunk that reaches it. `false`: there is no such message.
    func readRelayMessageSource(id: String, upTo limit: Int?, _ body: (ArraySlice<UInt8>) async throws -> Void) async throws -> Bool
    /// The team's refusals after `date`, newest first.
    func relayRefusals(teamID: TeamID, since date: Date, limit: Int) async throws -> [RelayRefusalRecord]
}

/// Forgetting what is past its time.
public protocol RelayRetentionStore: Sendable {
    /// Deletes every team's refusals recorded before `date`; returns how many went. The log would
    /// otherwise grow with every message a stranger sends to a relay address.
    func purgeRelayRefusals(before date: Date) async throws -> Int
    /// Deletes the messages received before `date`, with their content and delivery records, unless
    /// still queued for the smarthost; returns how many went. Relayed mail is kept for the retention
    /// (``RelaySettings/retention``), not for ever.
    func purgeRelayMail(receivedBefore date: Date) async throws -> Int
}

extension RelayAcceptStore {
    /// Writes every message with its content and delivery record in one transaction, without a limit.
    public func accept(_ mail: [AcceptedRelayMail]) async throws {
        _ = try await accept(mail, limits: .none)
    }
}

extension RelayMailboxStore {
    /// The whole stored message, or `nil`: for display and tests; sending reads it a chunk at a time
    /// (``readRelayMessageSource(id:upTo:_:)``).
    public func relayMessageSource(id: String) async throws -> [UInt8]? {
        var bytes: [UInt8] = []
        return try await readRelayMessageSource(id: id, upTo: nil) { bytes += $0 } ? bytes : nil
    }
}

extension RelayDailyLimit {
    /// How many messages of `mail` count against each relay address: forwards and replies.
    public static func counted(_ mail: [AcceptedRelayMail]) -> [String: Int] {
        mail.filter { $0.mail.message.direction != .bounce }.reduce(into: [:]) { $0[$1.mail.message.relayAddress, default: 0] += 1 }
    }
}
