/// One SMTP reply (RFC 5321 §4.2): a three-digit code and one or more lines of text.
public struct SMTPReply: Sendable, Hashable, CustomStringConvertible {
    public var code: Int
    public var lines: [String]

    public init(_ code: Int, _ lines: [String]) {
        self.code = code
        self.lines = lines.isEmpty ? [""] : lines
    }

    public init(_ code: Int, _ text: String) { self.init(code, [text]) }

    /// 2xx and 3xx: the command was accepted.
    public var isPositive: Bool { code < 400 }
    /// 4xx: the client may try again later.
    public var isTransient: Bool { (400..<500).contains(code) }

    /// The reply on the wire: `250-first`, …, `250 last`, each line ended by CRLF.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        for (index, line) in lines.enumerated() {
            out += Array("\(code)\(index == lines.count - 1 ? " " : "-")\(line)\r\n".utf8)
        }
        return out
    }

    public var description: String { lines.map { "\(code) \($0)" }.joined(separator: "\n") }
}

extension SMTPReply {
    public static let ok = SMTPReply(250, "2.0.0 OK")
    public static let startMailInput = SMTPReply(354, "End data with <CR><LF>.<CR><LF>")
    public static let closing = SMTPReply(221, "2.0.0 Bye")
    public static let badSequence = SMTPReply(503, "5.5.1 Bad sequence of commands")
    public static let unrecognized = SMTPReply(500, "5.5.2 Command not recognized")
    public static let lineTooLong = SMTPReply(500, "5.5.2 Line too long")
    public static let tooManyRecipients = SMTPReply(452, "4.5.3 Too many recipients")
    public static let timeout = SMTPReply(421, "4.4.2 Timeout, closing connection")
    public static let dataTooLong = SMTPReply(421, "4.4.2 DATA took too long, closing connection")
    /// A connection beyond the listener's bounds on sessions (overall or from one address).
    public static let tooManySessions = SMTPReply(421, "4.7.0 Too many connections, try again later")
    public static let tooManyErrors = SMTPReply(421, "4.7.0 Too many errors, closing connection")
    /// VRFY refused politely (RFC 5321 §3.5.3: 252 rather than confirming which addresses exist).
    public static let cannotVerify = SMTPReply(252, "2.1.5 Cannot VRFY user, but will accept message and attempt delivery")
    public static let notImplemented = SMTPReply(502, "5.5.1 Command not implemented")
    public static let help = SMTPReply(214, "2.0.0 Commands: EHLO HELO MAIL RCPT DATA RSET NOOP QUIT VRFY")

    /// RFC 5321 §2.3.8: a line ends with CRLF, never a CR or a LF alone.
    public static let bareLineEnd = SMTPReply(550, "5.5.2 Message refused: bare CR or LF; every line ends with CRLF (RFC 5321 §2.3.8)")

    public static func syntax(_ why: String) -> SMTPReply { SMTPReply(501, "5.5.4 \(why)") }

    public static func messageTooBig(limit: Int) -> SMTPReply {
        SMTPReply(552, "5.3.4 Message size exceeds fixed maximum message size of \(limit) bytes")
    }
}
