/// One command line of an SMTP session (RFC 5321 §4.1.1), parsed. Verbs are case-insensitive.
public enum SMTPCommand: Sendable, Hashable {
    case hello(domain: String, extended: Bool)
    case mail(from: MailPath, parameters: [String: String])
    case recipient(to: MailPath)
    case data
    case reset
    case noop
    case quit
    case verify
    case help
    /// Known but not offered here (`EXPN`, `STARTTLS`, `TURN`, …).
    case notImplemented(String)
    case unknown
    /// A known verb with arguments that do not parse; the text says what is wrong.
    case malformed(String)

    static let notOffered: Set<String> = ["EXPN", "STARTTLS", "TURN", "ETRN", "ATRN", "AUTH", "BDAT", "SEND", "SOML", "SAML"]

    /// Parses one line, without its CRLF.
    public static func parse(_ line: Substring) -> SMTPCommand {
        let verbEnd = line.firstIndex(of: " ") ?? line.endIndex
        let verb = line[..<verbEnd].uppercased()
        let argument = line[verbEnd...].drop { $0 == " " }
        switch verb {
        case "HELO", "EHLO":
            let domain = argument.trimmingTrailingSpaces
            guard !domain.isEmpty, !domain.contains(" ") else { return .malformed("\(verb) requires a domain") }
            return .hello(domain: String(domain), extended: verb == "EHLO")
        case "MAIL": return parseMail(argument)
        case "RCPT": return parseRecipient(argument)
        case "DATA": return argument.trimmingTrailingSpaces.isEmpty ? .data : .malformed("DATA takes no argument")
        case "RSET": return argument.trimmingTrailingSpaces.isEmpty ? .reset : .malformed("RSET takes no argument")
        case "NOOP": return .noop
        case "QUIT": return argument.trimmingTrailingSpaces.isEmpty ? .quit : .malformed("QUIT takes no argument")
        case "VRFY": return .verify
        case "HELP": return .help
        default: return notOffered.contains(verb) ? .notImplemented(verb) : .unknown
        }
    }

    private static func parseMail(_ argument: Substring) -> SMTPCommand {
        guard let rest = argument.droppingPrefix("FROM:") else { return .malformed("Syntax: MAIL FROM:<address>") }
        let words = rest.drop { $0 == " " }.split(separator: " ")
        guard let first = words.first, let path = MailPath.parse(first, allowNull: true) else {
            return .malformed("Syntax: MAIL FROM:<address>")
        }
        var parameters: [String: String] = [:]
        for word in words.dropFirst() {
            // `KEY=VALUE` or `KEY` (RFC 5321 §4.1.2, esmtp-param); a word that starts with `=` has no key.
            let equals = word.firstIndex(of: "=")
            let key = word[..<(equals ?? word.endIndex)].uppercased()
            guard !key.isEmpty, parameters[key] == nil else { return .malformed("Repeated or empty parameter") }
            parameters[key] = equals.map { String(word[word.index(after: $0)...]) } ?? ""
        }
        return .mail(from: path, parameters: parameters)
    }

    private static func parseRecipient(_ argument: Substring) -> SMTPCommand {
        guard let rest = argument.droppingPrefix("TO:") else { return .malformed("Syntax: RCPT TO:<address>") }
        let words = rest.drop { $0 == " " }.split(separator: " ")
        // `<postmaster>` without a domain (§4.5.1) is not a relay address: refused as malformed.
        guard words.count == 1, let path = MailPath.parse(words[0], allowNull: false) else {
            return .malformed("Syntax: RCPT TO:<address>")
        }
        return .recipient(to: path)
    }
}

extension Substring {
    var trimmingTrailingSpaces: Substring {
        var text = self
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }

    /// The rest after `prefix` (case-insensitive), or `nil`.
    func droppingPrefix(_ prefix: String) -> Substring? {
        guard count >= prefix.count, self.prefix(prefix.count).uppercased() == prefix else { return nil }
        return dropFirst(prefix.count)
    }
}
