import Foundation
import SMTPWire

/// The e-mail that confirms an order, written as an RFC 5322 message. Only the menu's juice name
/// and fixed text go into header fields; the customer's name, which came from a form or from
/// Apple, appears only in the body, stripped of control characters.
struct OrderConfirmation: Sendable, Hashable {
    var accountID: String
    var recipient: String
    var firstName: String
    var juiceName: String
    var orderedAt: Date

    func message(from settings: OrderMailSettings, messageID: String) -> [UInt8] {
        let greeting = Self.plain(firstName).isEmpty ? "Hello" : "Hello \(Self.plain(firstName))"
        let lines = [
            "From: \(settings.senderName) <\(settings.sender)>",
            "To: <\(recipient)>",
            "Subject: Your Juice order: \(juiceName)",
            "Date: \(MessageDate.format(orderedAt))",
            "Message-ID: <\(messageID)@\(Self.domain(of: settings.sender))>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: 8bit",
            "",
            "\(greeting),",
            "",
            "Thank you for your order: one \(juiceName). It is being squeezed.",
            "",
            "Juice",
        ]
        return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    /// Text without control characters (a name is one line).
    static func plain(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }))
    }

    static func domain(of address: String) -> Substring {
        address.lastIndex(of: "@").map { address[address.index(after: $0)...] } ?? "juice.invalid"
    }
}
