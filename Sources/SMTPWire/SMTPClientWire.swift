/// The client's side of the wire, for the relay's own deliveries to a smarthost: replies read back
/// (RFC 5321 §4.2.1, multi-line), and a message dot-stuffed and terminated for DATA (§4.5.2).
public struct SMTPReplyReader: Sendable {
    var buffer: [UInt8] = []
    var lines: [String] = []
    /// The longest reply line accepted (§4.5.3.1.5: 512), with room for lenient servers.
    public static let maximumLineLength = 4_096

    public init() {}

    public enum ReadError: Error, Sendable, Hashable {
        case malformed(String)
    }

    /// Takes bytes from the server; returns every reply they complete, in order.
    public mutating func read(_ bytes: some Collection<UInt8>) throws(ReadError) -> [SMTPReply] {
        buffer.append(contentsOf: bytes)
        var replies: [SMTPReply] = []
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            var end = newline
            if end > 0, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let line = String(decoding: buffer[..<end], as: UTF8.self)
            buffer.removeFirst(newline + 1)
            let utf8 = Array(line.utf8)
            guard utf8.count >= 3, let code = Int(String(decoding: utf8[0..<3], as: UTF8.self)), (200...599).contains(code),
                utf8.count == 3 || utf8[3] == UInt8(ascii: " ") || utf8[3] == UInt8(ascii: "-")
            else { throw .malformed(String(line.prefix(80))) }
            lines.append(utf8.count > 4 ? String(decoding: utf8[4...], as: UTF8.self) : "")
            if utf8.count == 3 || utf8[3] == UInt8(ascii: " ") {
                replies.append(SMTPReply(code, lines))
                lines = []
            }
        }
        guard buffer.count <= Self.maximumLineLength else { throw .malformed("reply line too long") }
        return replies
    }
}

public enum SMTPDotStuffing {
    /// The message as DATA sends it: every line ended by CRLF (a bare LF or a bare CR becomes CRLF,
    /// RFC 5321 §2.3.8, so no receiver reads a line end the relay did not), a leading dot doubled,
    /// then `.` CRLF.
    public static func encode(_ message: some Collection<UInt8>) -> [UInt8] {
        var stuffer = SMTPDotStuffer()
        return stuffer.encode(message) + stuffer.finish()
    }
}
