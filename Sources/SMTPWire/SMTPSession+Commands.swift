/// What each command does in each phase (RFC 5321 §4.1.1, §4.1.4 on order, §4.3.2 on replies).
extension SMTPSession {
    mutating func handle(_ command: SMTPCommand) -> [Event] {
        switch command {
        case .hello(let domain, let extended):
            resetTransaction()
            phase = .ready
            guard extended else { return [.reply(SMTPReply(250, "\(hostname) greets \(domain)"))] }
            return [
                .reply(SMTPReply(250, ["\(hostname) greets \(domain)", "SIZE \(limits.maximumMessageBytes)", "8BITMIME", "PIPELINING", "SMTPUTF8"]))
            ]
        case .mail(let from, let parameters):
            return mail(from: from, parameters: parameters)
        case .recipient(let to):
            guard phase == .mail else { return error(.badSequence) }
            guard recipients.count < limits.maximumRecipients else { return [.reply(.tooManyRecipients)] }
            pending = .recipient(to)
            return [.checkRecipient(to, sender: sender)]
        case .data:
            guard phase == .mail else { return error(.badSequence) }
            guard !recipients.isEmpty else { return error(SMTPReply(554, "5.5.1 No valid recipients")) }
            phase = .data
            dataStartedAt = lastProgress
            data = DataScanner()
            return [.reply(.startMailInput)]
        case .reset:
            resetTransaction()
            return [.reply(.ok)]
        case .noop: return [.reply(.ok)]
        case .quit: return close(with: .closing)
        case .verify: return [.reply(.cannotVerify)]
        case .help: return [.reply(.help)]
        case .notImplemented: return error(.notImplemented)
        case .unknown: return error(.unrecognized)
        case .malformed(let why): return error(.syntax(why))
        }
    }

    private mutating func mail(from: MailPath, parameters: [String: String]) -> [Event] {
        guard phase == .ready else { return error(phase == .awaitingHello ? SMTPReply(503, "5.5.1 Say EHLO first") : .badSequence) }
        for (key, value) in parameters {
            switch key {
            case "SIZE":
                guard let size = Int(value), size >= 0 else { return error(.syntax("SIZE must be a number")) }
                if size > limits.maximumMessageBytes { return [.reply(.messageTooBig(limit: limits.maximumMessageBytes))] }
            case "BODY":
                guard ["7BIT", "8BITMIME"].contains(value.uppercased()) else { return error(.syntax("BODY must be 7BIT or 8BITMIME")) }
            case "SMTPUTF8":
                guard value.isEmpty else { return error(.syntax("SMTPUTF8 takes no value")) }
            default:
                return error(SMTPReply(555, "5.5.4 Unsupported parameter \(key)"))
            }
        }
        phase = .mail
        sender = from
        self.parameters = parameters
        recipients = []
        return [.reply(.ok)]
    }

    /// The message is complete: too big, or the caller's to decide.
    mutating func finishMessage() -> [Event] {
        if data.oversized {
            resetTransaction()
            return [.messageAborted, .reply(.messageTooBig(limit: limits.maximumMessageBytes))]
        }
        if data.bareLineEnd {
            resetTransaction()
            return [.messageAborted, .reply(.bareLineEnd)]
        }
        pending = .message
        return [.messageComplete(Envelope(sender: sender, recipients: recipients, size: data.size, parameters: parameters))]
    }
}
