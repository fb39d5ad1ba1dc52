import AppleIDProtocol
import Foundation
import SMTPWire

extension MailRelay {
    /// Takes a whole message for its accepted recipients: each copy is rewritten and stored with its
    /// delivery record, all in one transaction, before the answer is 250 (nothing answered 250 is
    /// lost). A recipient whose route changed since `RCPT` (forwarding just turned off) is dropped;
    /// when none is left the answer is that recipient's refusal.
    public func accept(sender: String, recipients: [String], source: [UInt8]) async throws -> SMTPReply {
        let now = provider.clock.now()
        let headers = MessageHeaders.parse(source)
        var accepted: [AcceptedRelayMail] = []
        var lastRefusal: SMTPReply?
        for recipient in recipients {
            switch try await route(recipient: recipient, sender: sender) {
            case .failure(let refusal): lastRefusal = refusal.reply
            case .success(let route):
                if case .forward(let identity, _, _) = route, let refusal = try await dkimRefusal(of: source, sender: sender, teamID: identity.teamID)
                {
                    try await recordRefusal(refusal.reply, sender: sender, recipient: recipient)
                    lastRefusal = refusal.reply
                    continue
                }
                accepted.append(try await copy(of: source, headers: headers, sender: sender, recipient: recipient, route: route, now: now))
            }
        }
        guard !accepted.isEmpty else { return lastRefusal ?? SMTPReply(554, "5.5.1 No valid recipients") }
        try await store.accept(accepted)
        provider.relayMailSignal.signal()
        provider.logger.info(
            "relay accepted mail",
            metadata: ["messages": "\(accepted.map(\.mail.message.id).joined(separator: ","))", "bytes": "\(source.count)"])
        return SMTPReply(250, "2.0.0 Ok: queued as \(accepted[0].mail.message.id)")
    }

    private func copy(
        of source: [UInt8], headers: MessageHeaders, sender: String, recipient: String, route: Route, now: Date
    ) async throws -> AcceptedRelayMail {
        let id = newMessageID()
        let subject = headers.value("Subject") ?? ""
        let trace = ("Received", "by \(relayDomain) (siwa private relay) id \(id); \(RelayRewriting.date(now))")
        let message: RelayMessage
        let rewritten: [UInt8]
        switch route {
        case .forward(let identity, let account, let relayAddress):
            let alias = try await replyAlias(relayAddress: relayAddress, identity: identity, sender: sender, now: now)
            let from = RelayRewriting.mailbox(RelayRewriting.displayName(headers.value("From")) ?? sender, alias.alias)
            rewritten = RelayRewriting.rewrite(source, dropping: RelayRewriting.forwardDropped, adding: [trace, ("From", from)])
            message = RelayMessage(
                id: id, direction: .forward, accountID: account.id, teamID: identity.teamID, relayAddress: relayAddress, originalSender: sender,
                recipient: recipient.lowercased(), envelopeSender: alias.alias, destination: account.email.lowercased(), from: from, subject: subject,
                receivedAt: now, size: 0)
        case .reply(let alias, let account):
            let from = "<\(alias.relayAddress)>"
            rewritten = RelayRewriting.rewrite(
                source, dropping: RelayRewriting.replyDropped, adding: [trace, ("From", from), ("To", "<\(alias.sender)>")])
            message = RelayMessage(
                id: id, direction: .reply, accountID: account.id, teamID: alias.teamID, relayAddress: alias.relayAddress, originalSender: sender,
                recipient: recipient.lowercased(), envelopeSender: alias.relayAddress, destination: alias.sender, from: from, subject: subject,
                receivedAt: now, size: 0)
        }
        var sized = message
        sized.size = rewritten.count
        return AcceptedRelayMail(mail: RelayMail(message: sized, delivery: firstDelivery(of: sized, now: now)), source: rewritten)
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

    func newMessageID() -> String { provider.random.string(length: 20, alphabet: "abcdefghijklmnopqrstuvwxyz0123456789") }
}
