import SMTPWire

/// The header section of a received message, read from its first bytes only: all the relay keeps
/// of a message while its body streams from the spool to the store.
struct ReceivedHead: Sendable {
    /// The most a header section may take; a longer one is refused (552) rather than held.
    static let maximumBytes = 64 * 1024

    /// Parsed from the message's first whole lines (at most ``maximumBytes``), which its fields'
    /// `raw` slices keep.
    let headers: MessageHeaders
    /// Whether the message starts with an empty line (it has no header section).
    let startsWithLineEnd: Bool
    /// Where the body starts: after the empty line, or where the fields stopped.
    var bodyStart: Int { headers.bodyStart }
    /// Where the last field ends (the empty line, if any, is the body's first line).
    var fieldsEnd: Int { headers.fields.last?.raw.endIndex ?? 0 }

    /// Reads the header section from the start of `message`, or `nil` when it goes on past
    /// ``maximumBytes``.
    static func read(_ message: any MessageSource) async throws -> ReceivedHead? {
        let window = 0..<min(message.count, maximumBytes)
        let isWhole = window.count == message.count
        return try await message.withBytes(in: window) { bytes in
            // Only whole lines count: a window that ends inside a line could cut a field in two.
            let lastLineEnd = isWhole ? bytes.endIndex : (bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.startIndex)
            let lines = Array(bytes[bytes.startIndex..<lastLineEnd])
            let headers = MessageHeaders.parse(lines)
            let ended = isWhole || headers.bodyStart < lines.count || Self.endsWithEmptyLine(lines)
            guard ended else { return nil }
            return ReceivedHead(headers: headers, startsWithLineEnd: lines.starts(with: Array("\r\n".utf8)))
        }
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
