import AppleIDProvider
import Foundation
import SMTPWire

/// A bounce as RFC 3464 asks: `multipart/report` with a human-readable part, the machine-readable
/// `message/delivery-status`, and the headers of the message that failed (RFC 6522).
struct DeliveryStatusNotification {
    var reportingDomain: String
    var messageID: String
    /// To whom the bounce goes: the failed message's original sender.
    var recipient: String
    /// The address the sender used (relay address or alias): never the user's real address.
    var finalRecipient: String
    /// `5.x.x` (permanent) or `4.4.7` (expired), from the smarthost's reply when it had one.
    var status: String
    var diagnostic: String
    var arrivalDate: Date
    var date: Date
    var originalHeaders: ArraySlice<UInt8>

    var source: [UInt8] {
        let boundary = "siwa-dsn-\(messageID)"
        var text = """
            From: Mail Delivery System <MAILER-DAEMON@\(reportingDomain)>\r
            To: <\(recipient)>\r
            Subject: Undelivered Mail Returned to Sender\r
            Date: \(RelayRewriting.date(date))\r
            Message-ID: <\(messageID)@\(reportingDomain)>\r
            Auto-Submitted: auto-replied\r
            MIME-Version: 1.0\r
            Content-Type: multipart/report; report-type=delivery-status; boundary="\(boundary)"\r
            \r
            --\(boundary)\r
            Content-Type: text/plain; charset=utf-8\r
            \r
            Your message to <\(finalRecipient)> could not be delivered.\r
            \(RelayRewriting.headerSafe(diagnostic))\r
            \r
            --\(boundary)\r
            Content-Type: message/delivery-status\r
            \r
            Reporting-MTA: dns; \(reportingDomain)\r
            Arrival-Date: \(RelayRewriting.date(arrivalDate))\r
            \r
            Final-Recipient: rfc822; \(finalRecipient)\r
            Action: failed\r
            Status: \(status)\r
            Diagnostic-Code: smtp; \(RelayRewriting.headerSafe(diagnostic))\r
            \r
            --\(boundary)\r
            Content-Type: text/rfc822-headers\r
            \r

            """
        var bytes = Array(text.utf8) + originalHeaders
        text = "\r\n--\(boundary)--\r\n"
        bytes += Array(text.utf8)
        return bytes
    }

    /// The enhanced status code at the start of a reply's text (`550 5.1.1 …` → `5.1.1`), else `fallback`.
    static func status(in reply: String, fallback: String) -> String {
        let words = reply.split(separator: " ")
        for word in words.prefix(2) {
            let parts = word.split(separator: ".")
            if parts.count == 3, parts.allSatisfy({ $0.allSatisfy(\.isNumber) }), ["2", "4", "5"].contains(parts[0]) { return String(word) }
        }
        return fallback
    }
}
