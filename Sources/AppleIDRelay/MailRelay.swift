import AppleIDEmailSources
import AppleIDProtocol
import AppleIDProvider
import Foundation
import SMTPWire

/// The private e-mail relay's rules (spec §11): which recipients it takes, from whom, how often, and
/// where their mail goes. The SMTP listener asks it about each recipient and hands it each message;
/// the admin API, the CLI and the mailbox pages read through it.
///
/// The composition root makes one, over the relay's own storage, and hands it to the listener, the
/// delivery queue and the server's mail pages. Who an address belongs to it asks the engine.
public struct MailRelay: Sendable {
    let provider: AppleIDProvider
    let store: any RelayMailStore
    let settings: RelaySettings
    /// Wakes mail long-polls (`siwa mail wait`) and the smarthost queue when the relay accepts a message.
    public let mailSignal = CredentialEventSignal()
    var relayDomain: String { provider.configuration.relayDomain.lowercased() }
    /// The relay's domain as configured (`--relay-domain`): the SMTP listener greets with it.
    public var domain: String { provider.configuration.relayDomain }

    public init(provider: AppleIDProvider, store: any RelayMailStore, settings: RelaySettings = RelaySettings()) {
        self.provider = provider
        self.store = store
        self.settings = settings
    }

    /// Where a recipient's mail goes.
    enum Route: Sendable {
        /// A registered sender's mail to a relay address: on to the Apple ID. `source` is the team's
        /// e-mail source that lets the sender send: its DKIM key, if any, is checked at `DATA`.
        case forward(TeamIdentity, AppleIDAccount, relayAddress: String, source: EmailSource)
        /// The user's reply to a rewritten sender: on to that sender, from the relay address.
        case reply(RelayReplyAlias, AppleIDAccount)

        var relayAddress: String {
            switch self {
            case .forward(_, _, let address, _): address
            case .reply(let alias, _): alias.relayAddress
            }
        }
    }

    /// The answer to `RCPT TO`: 250 when the relay takes mail from `sender` for `recipient`, else
    /// why not, with Apple's meaning.
    public func checkRecipient(_ recipient: String, sender: String) async throws -> SMTPReply {
        switch try await route(recipient: recipient, sender: sender) {
        case .success: return SMTPReply(250, "2.1.5 OK")
        case .failure(let refusal):
            try await recordRefusal(refusal.reply, sender: sender, recipient: recipient)
            return refusal.reply
        }
    }

    /// The rules, in order: a relay address or reply alias of this relay, forwarding on, the sender
    /// allowed, the daily limit not reached. `countsDailyLimit: false` leaves the last to the store's
    /// step that writes the message (``RelayAcceptStore/accept(_:limits:)``), which counts anyway:
    /// `DATA` with one recipient need not count twice.
    func route(recipient: String, sender: String, countsDailyLimit: Bool = true) async throws -> Result<Route, RelayRefusal> {
        let address = recipient.lowercased()
        guard let at = address.lastIndex(of: "@"), address[address.index(after: at)...] == relayDomain else {
            return .failure(.notRelayed(recipient))
        }
        let route: Route
        if let identity = try await provider.teamIdentity(relayAddress: address) {
            guard let account = try await provider.account(id: identity.accountID), account.deletedAt == nil else {
                return .failure(.unknownAddress(recipient))
            }
            guard identity.relayForwardingEnabled else { return .failure(.forwardingOff(recipient)) }
            guard let source = try await registeredSource(sender, teamID: identity.teamID) else { return .failure(.senderNotRegistered(sender)) }
            route = .forward(identity, account, relayAddress: address, source: source)
        } else if let alias = try await store.replyAlias(address) {
            guard let account = try await provider.account(id: alias.accountID), account.deletedAt == nil,
                let identity = try await provider.teamIdentity(accountID: alias.accountID, teamID: alias.teamID)
            else { return .failure(.unknownAddress(recipient)) }
            guard identity.relayForwardingEnabled else { return .failure(.forwardingOff(recipient)) }
            // Only the Apple ID's own addresses reply through the alias: anyone else could otherwise
            // send to the developer as the relay address.
            guard account.emails.contains(where: { WireMatch.exact($0.lowercased(), sender.lowercased()) }) else {
                return .failure(.notTheOwner(sender))
            }
            route = .reply(alias, account)
        } else {
            return .failure(.unknownAddress(recipient))
        }
        guard countsDailyLimit else { return .success(route) }
        let since = provider.clock.now().addingTimeInterval(-86_400)
        guard try await store.relayMessageCount(relayAddress: route.relayAddress, since: since) < settings.dailyLimit else {
            return .failure(.dailyLimit(settings.dailyLimit))
        }
        return .success(route)
    }
}

/// Why the relay refuses a recipient: each with its SMTP reply.
enum RelayRefusal: Error, Sendable, Hashable {
    case notRelayed(String)
    case unknownAddress(String)
    case forwardingOff(String)
    case senderNotRegistered(String)
    case notTheOwner(String)
    case dailyLimit(Int)
    /// The team has ``RelaySettings/teamStorageQuota`` bytes of relayed mail stored.
    case teamStorageFull
    /// The sender's e-mail source has a DKIM key, and the message is not signed with it.
    case dkimFailed(String, String)

    var reply: SMTPReply {
        switch self {
        case .notRelayed(let address): SMTPReply(550, "5.7.1 Relaying denied: \(address) is not a private relay address")
        case .unknownAddress(let address): SMTPReply(550, "5.1.1 \(address): no such relay address")
        case .forwardingOff(let address): SMTPReply(550, "5.7.1 \(address): the user turned off forwarding for this address")
        case .senderNotRegistered(let sender):
            SMTPReply(550, "5.7.1 Sender not registered for this relay: <\(sender)> is not an e-mail source of the team")
        case .notTheOwner(let sender): SMTPReply(550, "5.7.1 <\(sender)> may not reply through this address")
        case .dailyLimit(let limit): SMTPReply(452, "4.5.3 Daily limit of \(limit) messages for this relay address reached; try again later")
        // RFC 3463 §3.3: X.2.2, mailbox full; temporary, since old mail is purged after the retention.
        case .teamStorageFull: SMTPReply(452, "4.2.2 The app's relayed mail takes all the storage it may have; try again later")
        case .dkimFailed(let sender, let reason):
            // RFC 7372 §3.1: 5.7.20, no passing DKIM signature found.
            SMTPReply(550, "5.7.20 Sender not authenticated: mail from <\(sender)> must carry a valid DKIM signature (\(reason))")
        }
    }
}
