import AppleIDProvider
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

    /// The received fields that go on, in both directions; everything else (who sent it, where it
    /// went, every trace, signature and authentication result, receipt requests, X- fields) is
    /// dropped. `In-Reply-To` and `References` go on mapped (``RelayMessageIDs``).
    static func isKept(_ name: String) -> Bool {
        let name = name.lowercased()
        return ["subject", "date", "mime-version"].contains(name) || name.hasPrefix("content-")
    }

    /// The header section rebuilt from an allow-list (issue 35, findings 4 and 5): `added` first,
    /// then a `Message-ID` under the relay domain (the original's, mapped, or `freshID`), the kept
    /// fields as received, `In-Reply-To`/`References` mapped, the blank line; then the body as
    /// received. `head` was read strictly to its blank line, so nothing of the section is left.
    static func rebuild(
        _ received: any MessageSource, head: ReceivedHead, adding added: [(String, String)], ids: RelayMessageIDs,
        crossing: RelayMessageIDs.Crossing, freshID: String
    ) -> RelayMessageContent {
        var out: [UInt8] = []
        for (name, value) in added { out += Array("\(name): \(headerSafe(value))\r\n".utf8) }
        let original = head.headers.value("Message-ID").flatMap { RelayMessageIDs.ids(in: $0).first }
        out += Array("Message-ID: \(original.flatMap { ids.map($0, crossing: crossing) } ?? freshID)\r\n".utf8)
        for field in head.headers.fields {
            let name = field.name.lowercased()
            if name == "in-reply-to" || name == "references" {
                // One id a line: a long thread's References stays within the line limit.
                if let mapped = ids.mapList(field.value, crossing: crossing) {
                    out += Array("\(field.name): \(mapped.split(separator: " ").joined(separator: "\r\n "))\r\n".utf8)
                }
            } else if isKept(name) {
                out += field.raw
                if field.raw.last != UInt8(ascii: "\n") { out += Array("\r\n".utf8) }
            }
        }
        out += Array("\r\n".utf8)
        return RelayMessageContent(head: out, received: received, bodyStart: head.bodyStart)
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
