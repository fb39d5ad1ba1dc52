import AppleIDProtocol
import AppleIDProvider
import Foundation

extension MailRelay: NoticeSender {
    /// The sender of the server's own messages.
    var noticeSender: String { "noreply@" + relayDomain }

    /// Sends a plain-text message of the server's own to `address`: stored with its delivery record
    /// (queued for the smarthost, or held for the admin API) before this returns, like relayed mail.
    /// Returns the message's id.
    public func sendNotice(to address: String, subject: String, text: String) async throws -> String {
        let now = provider.clock.now()
        let id = newMessageID()
        let from = RelayRewriting.mailbox("Sign in with Apple", noticeSender)
        let fields = [
            ("From", from), ("To", "<\(address)>"), ("Subject", subject), ("Date", RelayRewriting.date(now)),
            ("Message-ID", "<\(id)@\(relayDomain)>"), ("MIME-Version", "1.0"), ("Content-Type", "text/plain; charset=utf-8"),
            ("Content-Transfer-Encoding", "8bit"),
        ]
        let header = fields.map { "\($0.0): \(RelayRewriting.headerSafe($0.1))\r\n" }.joined()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let source = Array((header + "\r\n" + lines.joined(separator: "\r\n") + "\r\n").utf8)
        let message = RelayMessage(
            id: id, direction: .notice, accountID: "", teamID: TeamID(rawValue: ""), relayAddress: "", originalSender: noticeSender,
            recipient: address, envelopeSender: "", destination: address, from: from, subject: subject, receivedAt: now, size: source.count)
        try await store.accept([AcceptedRelayMail(mail: RelayMail(message: message, delivery: firstDelivery(of: message, now: now)), source: source)])
        mailSignal.signal()
        return id
    }
}
