import AppleIDProvider
import SMTPWire

/// The header section of a received message, read from its first bytes only: all the relay keeps
/// of a message while its body streams from the spool to the store.
struct ReceivedHead: Sendable {
    /// The most a header section may take; a longer one is refused (552) rather than held.
    static let maximumBytes = 64 * 1024

    /// Parsed from the message's first whole lines (at most ``maximumBytes``), which its fields'
    /// `raw` slices keep.
    let headers: MessageHeaders
    /// Where the body starts: after the blank line, or the end of a message without one.
    var bodyStart: Int { headers.bodyStart }

    /// What reading a message's header section gives: the section, or the reply that refuses it.
    enum Reading: Sendable {
        case head(ReceivedHead)
        case refused(SMTPReply)
    }

    /// Reads the header section from the start of `message`, strictly (``MessageHeaders/parseSection(_:)``):
    /// refused when it goes on past ``maximumBytes`` or ``MessageHeaders/maximumFields``, or has a
    /// line that is not a field, since the relay rebuilds the section from what it read.
    static func read(_ message: any MessageSource) async throws -> Reading {
        let window = 0..<min(message.count, maximumBytes)
        let isWhole = window.count == message.count
        return try await message.withBytes(in: window) { bytes in
            // Only whole lines count: a window that ends inside a line could cut a field in two.
            let lastLineEnd = isWhole ? bytes.endIndex : (bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.startIndex)
            let lines = Array(bytes[bytes.startIndex..<lastLineEnd])
            switch MessageHeaders.parseSection(lines) {
            case .failure(.tooManyFields):
                return .refused(SMTPReply(552, "5.3.4 Too many header fields: at most \(MessageHeaders.maximumFields)"))
            case .failure(.malformedLine(let number)):
                return .refused(SMTPReply(554, "5.6.0 Header section does not parse: line \(number) is not a header field"))
            case .success(let headers):
                let ended = isWhole || headers.bodyStart < lines.count || Self.endsWithEmptyLine(lines)
                guard ended else { return .refused(SMTPReply(552, "5.3.4 Header section too large: at most \(maximumBytes / 1024) KB")) }
                return .head(ReceivedHead(headers: headers))
            }
        }
    }

    /// The fields RFC 5322 §3.6 allows once: a second one is refused, so that what the relay shows
    /// and what a DKIM verifier signs (the bottom instance) cannot differ.
    static let fieldsAllowedOnce = [
        "Date", "From", "Sender", "Reply-To", "To", "Cc", "Bcc", "Message-ID", "In-Reply-To", "References", "Subject",
    ]

    /// `554 5.6.0` naming the first field that appears more than once, or `nil`.
    var duplicateRefusal: SMTPReply? {
        for name in Self.fieldsAllowedOnce {
            let wanted = name.lowercased()
            if headers.fields.count(where: { $0.name.lowercased() == wanted }) > 1 {
                return SMTPReply(554, "5.6.0 Message refused: more than one \(name) field (RFC 5322 §3.6)")
            }
        }
        return nil
    }

    /// Whether the last line of `lines` is the empty line that ends a header section.
    private static func endsWithEmptyLine(_ lines: [UInt8]) -> Bool {
        var end = lines.count
        guard end > 0, lines[end - 1] == UInt8(ascii: "\n") else { return false }
        end -= 1
        if end > 0, lines[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return end == 0 || lines[end - 1] == UInt8(ascii: "\n")
    }
}
