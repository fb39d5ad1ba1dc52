import AppleIDEmailSources
import AppleIDProtocol
import AppleIDProvider
import Foundation
import SMTPWire

/// A team's private-relay traffic per e-mail source, for the console: what was accepted, refused and
/// why, and bounced. It answers "why did my mail not arrive?" as the request log does for tokens.
public struct RelayTraffic: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        public enum Outcome: String, Sendable, Hashable {
            case accepted, refused, bounced
        }
        public var at: Date
        public var outcome: Outcome
        public var sender: String
        public var recipient: String
        /// The subject of accepted and bounced mail; for a refusal, the relay's SMTP reply.
        public var detail: String
    }

    public struct Reason: Sendable, Hashable {
        public var reply: String
        public var count: Int
    }

    public struct Source: Sendable, Hashable {
        /// The e-mail source, or `nil` for senders that are none of the team's sources.
        public var source: String?
        public var accepted = 0
        public var refused = 0
        public var bounced = 0
        /// Why mail was refused, most frequent first.
        public var reasons: [Reason] = []
        /// The newest entries, newest first.
        public var latest: [Entry] = []
    }

    /// The traffic counted is what arrived after this moment.
    public var since: Date
    /// One per e-mail source, in the console's order, then unregistered senders if any sent.
    public var sources: [Source]
}

extension MailRelay {
    /// How far back the console's traffic page looks, and how much it reads at most.
    static let trafficWindow: TimeInterval = 7 * 86_400
    static let trafficReadLimit = 1_000
    static let latestPerSource = 10

    /// The team's traffic of the last seven days, per e-mail source (in a bounded number of queries).
    public func traffic(teamID: TeamID) async throws -> RelayTraffic {
        let since = provider.clock.now().addingTimeInterval(-Self.trafficWindow)
        let sources = try await provider.emailSources(teamID: teamID)
        let mail = try await store.relayMail(.team(teamID), limit: Self.trafficReadLimit).filter { $0.message.receivedAt > since }
        let refusals = try await store.relayRefusals(teamID: teamID, since: since, limit: Self.trafficReadLimit)
        var entries: [RelayTraffic.Entry] = mail.compactMap { item in
            let message = item.message
            switch message.direction {
            case .forward:
                return .init(
                    at: message.receivedAt, outcome: .accepted, sender: message.originalSender, recipient: message.recipient, detail: message.subject)
            case .bounce:
                return .init(
                    at: message.receivedAt, outcome: .bounced, sender: message.destination, recipient: message.relayAddress, detail: message.subject)
            case .reply, .notice: return nil
            }
        }
        entries += refusals.map { .init(at: $0.at, outcome: .refused, sender: $0.sender, recipient: $0.recipient, detail: $0.reply) }
        entries.sort { $0.at > $1.at }

        var bySource: [String?: RelayTraffic.Source] = [:]
        var reasons: [String?: [String: Int]] = [:]
        for entry in entries {
            let key = Self.source(of: entry.sender, in: sources)?.value
            var row = bySource[key] ?? RelayTraffic.Source(source: key)
            switch entry.outcome {
            case .accepted: row.accepted += 1
            case .bounced: row.bounced += 1
            case .refused:
                row.refused += 1
                reasons[key, default: [:]][entry.detail, default: 0] += 1
            }
            if row.latest.count < Self.latestPerSource { row.latest.append(entry) }
            bySource[key] = row
        }
        var rows = sources.map { bySource[$0.value] ?? RelayTraffic.Source(source: $0.value) }
        if let unregistered = bySource[nil] { rows.append(unregistered) }
        for index in rows.indices {
            rows[index].reasons = (reasons[rows[index].source] ?? [:]).map { RelayTraffic.Reason(reply: $0.key, count: $0.value) }
                .sorted { ($0.count, $1.reply) > ($1.count, $0.reply) }
        }
        return RelayTraffic(since: since, sources: rows)
    }

    /// The e-mail source that lets `sender` send: the address itself before its domain (spec §11).
    static func source(of sender: String, in sources: [EmailSource]) -> EmailSource? {
        let address = sender.lowercased()
        guard let at = address.lastIndex(of: "@") else { return nil }
        let domain = String(address[address.index(after: at)...])
        return sources.first { $0.value == address } ?? sources.first { $0.value == domain }
    }

    /// Keeps a refused recipient for the team whose relay address or reply alias it names.
    func recordRefusal(_ reply: SMTPReply, sender: String, recipient: String) async throws {
        let address = recipient.lowercased()
        let teamID: TeamID?
        if let identity = try await provider.teamIdentity(relayAddress: address) {
            teamID = identity.teamID
        } else {
            teamID = try await store.replyAlias(address)?.teamID
        }
        guard let teamID else { return }
        try await store.recordRelayRefusal(
            RelayRefusalRecord(
                id: newMessageID(), teamID: teamID, sender: sender.lowercased(), recipient: address,
                reply: "\(reply.code) " + reply.lines.joined(separator: " "), at: provider.clock.now()))
    }
}
