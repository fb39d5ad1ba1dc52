import AppleIDProtocol
import AppleIDProvider
import Crypto
import Foundation
import SMTPWire

extension MailRelay {
    /// Takes a whole message held in memory (a reply written on the mailbox page, tests).
    public func accept(sender: String, recipients: [String], source: [UInt8]) async throws -> SMTPReply {
        try await accept(sender: sender, recipients: recipients, message: InMemoryMessage(source))
    }

    /// Takes a message for its accepted recipients: each copy is rewritten and stored with its
    /// delivery record, all in one transaction, before the answer is 250 (nothing answered 250 is
    /// lost). A recipient whose route changed since `RCPT` (forwarding just turned off) is dropped;
    /// when none is left the answer is that recipient's refusal. Only the header section is read at
    /// once; the body goes from `message` to the store a chunk at a time.
    ///
    /// With one recipient, the daily limit is counted once, in the store's step that writes the
    /// copy; with several, each route counts its own first, so that one address at its limit does
    /// not hold back the others.
    public func accept(sender: String, recipients: [String], message: any MessageSource) async throws -> SMTPReply {
        let now = provider.clock.now()
        let head: ReceivedHead
        switch try await ReceivedHead.read(message) {
        case .refused(let reply): return reply
        case .head(let read): head = read
        }
        if let refusal = head.duplicateRefusal { return refusal }
        var accepted: [AcceptedRelayMail] = []
        var lastRefusal: SMTPReply?
        // The copies differ in their heads only: the store keeps the body once for all of them.
        let bodyID = newMessageID()
        for recipient in recipients {
            switch try await route(recipient: recipient, sender: sender, countsDailyLimit: recipients.count > 1) {
            case .failure(let refusal): lastRefusal = refusal.reply
            case .success(let route):
                if case .forward(_, _, _, let source) = route,
                    let refusal = try await dkimRefusal(of: head, message: message, sender: sender, source: source)
                {
                    try await recordRefusal(refusal.reply, sender: sender, recipient: recipient)
                    lastRefusal = refusal.reply
                    continue
                }
                var copy = try await copy(of: message, head: head, sender: sender, recipient: recipient, route: route, now: now)
                copy.content.bodyID = bodyID
                accepted.append(copy)
            }
        }
        guard !accepted.isEmpty else { return lastRefusal ?? SMTPReply(554, "5.5.1 No valid recipients") }
        // The daily limit once more, counted with these copies in the store's one step (the check at
        // RCPT cannot see the sessions that pass it at the same moment), and the team's stored bytes.
        let limits = RelayAcceptLimits(
            daily: RelayDailyLimit(count: settings.dailyLimit, since: now.addingTimeInterval(-86_400)), teamBytes: settings.teamStorageQuota)
        let refusal: SMTPReply? =
            switch try await store.accept(accepted, limits: limits) {
            case .accepted: nil
            case .dailyLimit: RelayRefusal.dailyLimit(settings.dailyLimit).reply
            case .teamQuota: RelayRefusal.teamStorageFull.reply
            }
        if let refusal {
            for copy in accepted { try await recordRefusal(refusal, sender: sender, recipient: copy.mail.message.recipient) }
            return refusal
        }
        mailSignal.signal()
        provider.logger.info(
            "relay accepted mail",
            metadata: ["messages": "\(accepted.map(\.mail.message.id).joined(separator: ","))", "bytes": "\(message.count)"])
        return SMTPReply(250, "2.0.0 Ok: queued as \(accepted[0].mail.message.id)")
    }

    private func copy(
        of received: any MessageSource, head: ReceivedHead, sender: String, recipient: String, route: Route, now: Date
    ) async throws -> AcceptedRelayMail {
        let id = newMessageID()
        let headers = head.headers
        let subject = headers.value("Subject") ?? ""
        let trace = ("Received", "by \(relayDomain) (siwa private relay) id \(id); \(RelayRewriting.date(now))")
        let message: RelayMessage
        let content: RelayMessageContent
        switch route {
        case .forward(let identity, let account, let relayAddress, _):
            let alias = try await replyAlias(relayAddress: relayAddress, identity: identity, sender: sender, now: now)
            let from = RelayRewriting.mailbox(RelayRewriting.displayName(headers.value("From")) ?? sender, alias.alias)
            content = RelayRewriting.rebuild(
                received, head: head, adding: [trace, ("From", from), ("To", "<\(relayAddress)>")], ids: messageIDs, crossing: .forward,
                freshID: "<\(id)@\(relayDomain)>")
            message = RelayMessage(
                id: id, direction: .forward, accountID: account.id, teamID: identity.teamID, relayAddress: relayAddress, originalSender: sender,
                recipient: recipient.lowercased(), envelopeSender: alias.alias, destination: account.email.lowercased(), from: from, subject: subject,
                receivedAt: now, size: 0)
        case .reply(let alias, let account):
            let from = "<\(alias.relayAddress)>"
            content = RelayRewriting.rebuild(
                received, head: head, adding: [trace, ("From", from), ("To", "<\(alias.sender)>")], ids: messageIDs, crossing: .reply,
                freshID: "<\(id)@\(relayDomain)>")
            message = RelayMessage(
                id: id, direction: .reply, accountID: account.id, teamID: alias.teamID, relayAddress: alias.relayAddress, originalSender: sender,
                recipient: recipient.lowercased(), envelopeSender: alias.relayAddress, destination: alias.sender, from: from, subject: subject,
                receivedAt: now, size: 0)
        }
        var sized = message
        sized.size = content.count
        return AcceptedRelayMail(mail: RelayMail(message: sized, delivery: firstDelivery(of: sized, now: now)), content: content)
    }
    /// Into the mailbox, held, or queued for the smarthost at once.
    func firstDelivery(of message: RelayMessage, now: Date) -> RelayDelivery {
        if settings.usesSmarthost { return RelayDelivery(messageID: message.id, state: .queued, nextAttemptAt: now, updatedAt: now) }
        return RelayDelivery(messageID: message.id, state: message.direction == .forward ? .mailbox : .held, updatedAt: now)
    }

    /// The sender's alias for the relay address: the same one every time.
    private func replyAlias(relayAddress: String, identity: TeamIdentity, sender: String, now: Date) async throws -> RelayReplyAlias {
        let alias = RelayReplyAlias(
            alias: RelayRewriting.alias(for: sender, relayDomain: relayDomain, random: provider.random), accountID: identity.accountID,
            teamID: identity.teamID, relayAddress: relayAddress, sender: sender.lowercased(), createdAt: now)
        return try await store.insertReplyAlias(alias)
    }

    /// The map of Message-IDs across the relay, under its key.
    var messageIDs: RelayMessageIDs { RelayMessageIDs(key: SymmetricKey(data: settings.messageIDKey), relayDomain: relayDomain) }

    func newMessageID() -> String { provider.random.string(length: 20, alphabet: "abcdefghijklmnopqrstuvwxyz0123456789") }
}
