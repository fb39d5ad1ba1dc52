import AppleIDProtocol
import AppleIDProvider
import Foundation
import SMTPWire

/// What happened to a reply written on the mailbox page.
public enum MailboxReplyOutcome: Sendable, Hashable {
    /// The relay took it (its message id).
    case sent(String)
    /// The relay refused it, with its reason (forwarding off, the daily limit...).
    case refused(String)
}

extension MailRelay {
    /// One message of the Apple ID's mailbox, or `nil`: another Apple ID's message is as unknown as
    /// a missing one, so that ids cannot be probed.
    public func mailboxMessage(id: String, accountID: String) async throws -> RelayMailDetail? {
        guard let detail = try await message(id: id), detail.mail.message.accountID == accountID, detail.mail.message.direction == .forward
        else { return nil }
        return detail
    }

    /// The user's reply to a message of their mailbox: written as from the Apple ID's real address to
    /// the message's reply alias and handed to the relay, whose reply route (spec §11) sends it on to
    /// the original sender from the relay address; the sender never sees the real address. `nil` when
    /// the message is not in the Apple ID's mailbox.
    public func reply(to id: String, accountID: String, text: String) async throws -> MailboxReplyOutcome? {
        guard let original = try await mailboxMessage(id: id, accountID: accountID),
            let account = try await provider.account(id: accountID), account.deletedAt == nil
        else { return nil }
        let message = original.mail.message
        let source = replySource(to: original, from: account.email, text: text)
        let answer = try await accept(sender: account.email, recipients: [message.envelopeSender], source: source)
        guard answer.isPositive else { return .refused(answer.lines.joined(separator: " ")) }
        return .sent(answer.lines.first?.split(separator: " ").last.map(String.init) ?? "")
    }

    /// A plain-text reply, threaded to the original (RFC 5322 §3.6.4), its lines ended with CRLF.
    private func replySource(to original: RelayMailDetail, from sender: String, text: String) -> [UInt8] {
        let message = original.mail.message
        let subject = message.subject.lowercased().hasPrefix("re:") ? message.subject : "Re: \(message.subject)"
        var fields = [
            ("From", "<\(sender)>"), ("To", "<\(message.envelopeSender)>"), ("Subject", subject),
            ("Date", RelayRewriting.date(provider.clock.now())), ("Message-ID", "<\(newMessageID())@\(relayDomain)>"),
            ("MIME-Version", "1.0"), ("Content-Type", "text/plain; charset=utf-8"), ("Content-Transfer-Encoding", "8bit"),
        ]
        if let parent = original.headers.first(where: { $0.name.lowercased() == "message-id" })?.value {
            fields += [("In-Reply-To", parent), ("References", parent)]
        }
        let header = fields.map { "\($0.0): \(RelayRewriting.headerSafe($0.1))\r\n" }.joined()
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false)
        return Array((header + "\r\n" + lines.joined(separator: "\r\n") + "\r\n").utf8)
    }
}
