import AppleIDProvider
import AppleIDRelay
import Foundation

extension AppleIDEmulator {
    /// A message the emulated private relay forwarded (spec §11), as the user's mail app shows it.
    public struct Mail: Sendable, Hashable {
        public var id: String
        /// The `From` as the relay rewrote it: a reply alias at the relay, not the sender's own address.
        public var from: String
        /// The relay address it was sent to.
        public var to: String
        public var subject: String
        public var receivedAt: Date
        /// The plain-text part (the whole body when the message has no MIME type), if any.
        public var text: String?
        /// The HTML part, if any.
        public var html: String?
        /// The message exactly as the relay forwarded it.
        public var source: [UInt8]
    }

    /// The mail the relay forwarded to `address`, newest first: an Apple ID (every one of its relay
    /// addresses) or one relay address.
    ///
    /// ```swift
    /// let mail = try await apple.mailbox(for: relayAddress)
    /// #expect(mail.first?.subject == "Your order")
    /// ```
    public func mailbox(for address: String) async throws -> [Mail] {
        let listed: [RelayMail]
        if let account = try await provider.lookUpAccount(appleID: address) {
            listed = try await relay.mailbox(accountID: account.id)
        } else {
            listed = try await relay.messages(.address(address)).filter { $0.message.direction == .forward }
        }
        var mail: [Mail] = []
        for item in listed {
            guard let detail = try await relay.message(id: item.message.id) else { continue }
            let body = MessageBody.read(detail.source)
            mail.append(
                Mail(
                    id: item.message.id, from: item.message.from, to: item.message.recipient, subject: item.message.subject,
                    receivedAt: item.message.receivedAt, text: body.text, html: body.html, source: detail.source))
        }
        return mail
    }
}
