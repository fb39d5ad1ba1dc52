import Foundation
import SMTPWire

/// Rewrites what a relayed message says about who sent it (spec §11): the developer's mail appears
/// to come from a reply alias, and the user's reply from the relay address, so that neither side
/// learns more than the relay address.
enum RelayRewriting {
    /// `news@example.com` → `news_at_example_com_<random>@<relay domain>` (Apple's form).
    static func alias(for sender: String, relayDomain: String, random: any RandomSource) -> String {
        let readable = sender.lowercased().replacingOccurrences(of: "@", with: "_at_").map { $0.isLetter || $0.isNumber ? $0 : "_" }
        let prefix = String(readable.prefix(40))
        return "\(prefix)_\(random.string(length: 6, alphabet: "abcdefghijklmnopqrstuvwxyz0123456789"))@\(relayDomain)"
    }

    /// Headers that could name the user's real address or the original sender's path, removed
    /// before the relay's own are put in front.
    static let forwardDropped: Set<String> = ["from", "reply-to", "sender", "return-path"]
    static let replyDropped: Set<String> = [
        "from", "reply-to", "sender", "return-path", "to", "cc", "received", "x-originating-ip", "x-sender", "disposition-notification-to",
    ]

    /// The message with the `dropped` header fields removed and `added` put first: a new header
    /// section, followed by the received message from the end of its fields on, which is not copied.
    static func rewrite(
        _ received: any MessageSource, head: ReceivedHead, dropping dropped: Set<String>, adding added: [(String, String)]
    ) -> RelayMessageContent {
        var out: [UInt8] = []
        for (name, value) in added { out += Array("\(name): \(headerSafe(value))\r\n".utf8) }
        for field in head.headers.fields where !dropped.contains(field.name.lowercased()) { out += field.raw }
        // The header section ended in an empty line (kept in the body part) or at the end.
        let bodyStart = head.fieldsEnd
        if bodyStart >= received.count || (head.headers.fields.isEmpty && !head.startsWithLineEnd) {
            out += Array("\r\n".utf8)
        }
        return RelayMessageContent(head: out, received: received, bodyStart: bodyStart)
    }

    /// The display name of a `From` value (`"News" <news@example.com>` → `News`), or `nil`.
    static func displayName(_ from: String?) -> String? {
        guard let from, let open = from.firstIndex(of: "<") else { return nil }
        let name = from[..<open].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        return name.isEmpty ? nil : name
    }

    /// A header value on one line, without characters that would end it.
    static func headerSafe(_ value: String) -> String {
        String(value.map { $0 == "\r" || $0 == "\n" ? " " : $0 })
    }

    /// `"Name" <address>`, quoting the name.
    static func mailbox(_ name: String?, _ address: String) -> String {
        guard let name else { return "<\(address)>" }
        let quoted = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"\(quoted)\" <\(address)>"
    }

    /// RFC 5322 §3.3 date-time, in UTC.
    static func date(_ date: Date) -> String { MessageDate.format(date) }
}
