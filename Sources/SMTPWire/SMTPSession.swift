/// The server side of one SMTP session (RFC 5321) as a pure, synchronous state machine: bytes in,
/// events out. It knows nothing of sockets, time sources or relay rules:
/// - the caller feeds it what the client sent (``receive(_:now:)``), the end of input
///   (``inputEnded()``) and the time (``checkTimeout(now:)``), and writes the replies it returns;
/// - recipients and finished messages are the caller's decision: the session stops at
///   ``Event/checkRecipient(_:sender:)`` and ``Event/messageComplete(_:)`` and goes on, with the
///   input it kept (pipelining, RFC 2920), once ``resolve(_:now:)`` gives the reply.
public struct SMTPSession: Sendable {
    public enum Event: Sendable, Hashable {
        case reply(SMTPReply)
        /// Decide whether the recipient is accepted; answer with ``resolve(_:now:)``.
        case checkRecipient(MailPath, sender: MailPath)
        /// Part of the message being received, dot-unstuffed, in order.
        case messageBytes([UInt8])
        /// The whole message arrived; store it and answer with ``resolve(_:now:)`` (250 only once it
        /// is safely kept).
        case messageComplete(Envelope)
        /// Forget the bytes of the message being received (too big, or the client went away).
        case messageAborted
        /// Close the connection once the replies before this event are written.
        case close
    }

    /// The envelope of a finished message.
    public struct Envelope: Sendable, Hashable {
        public var sender: MailPath
        public var recipients: [MailPath]
        /// The message's size after dot-unstuffing.
        public var size: Int
        /// MAIL FROM's parameters (`BODY`, `SMTPUTF8`, `SIZE`).
        public var parameters: [String: String]
    }

    enum Phase: Equatable {
        case awaitingHello
        case ready
        case mail
        case data
        case closed
    }

    enum Pending: Equatable {
        case recipient(MailPath)
        case message
    }

    public let hostname: String
    public let limits: SMTPLimits
    var phase: Phase = .awaitingHello
    var pending: Pending?
    var input: [UInt8] = []
    var inputStart = 0
    var inputClosed = false
    /// While a too-long command line is skipped up to its end.
    var discardingLine = false
    var errors = 0
    var lastProgress: Duration
    /// When the message being received started (DATA's reply), for ``SMTPLimits/maximumDataDuration``.
    var dataStartedAt: Duration = .zero
    var sender = MailPath(address: "")
    var parameters: [String: String] = [:]
    var recipients: [MailPath] = []
    var data = DataScanner()

    public init(hostname: String, limits: SMTPLimits = SMTPLimits(), now: Duration) {
        self.hostname = hostname
        self.limits = limits
        self.lastProgress = now
    }

    /// The greeting, written as soon as the connection opens.
    public var greeting: SMTPReply { SMTPReply(220, "\(hostname) ESMTP ready") }
    public var isAwaitingDecision: Bool { pending != nil }
    public var isClosed: Bool { phase == .closed }

    /// Takes bytes the client sent and runs every complete command or data line it can.
    public mutating func receive(_ bytes: some Collection<UInt8>, now: Duration) -> [Event] {
        guard phase != .closed else { return [] }
        input.append(contentsOf: bytes)
        if phase == .data { lastProgress = now }
        return run(now: now)
    }

    /// The client closed its side: what is pending is still answered, then the session ends; a
    /// message cut short is forgotten.
    public mutating func inputEnded() -> [Event] {
        guard phase != .closed else { return [] }
        inputClosed = true
        return pending == nil ? run(now: lastProgress) : []
    }

    /// Answers the recipient or the message the session stopped at, then goes on with the input.
    public mutating func resolve(_ reply: SMTPReply, now: Duration) -> [Event] {
        guard let decided = pending else { return [] }
        pending = nil
        lastProgress = now
        switch decided {
        case .recipient(let path): if reply.isPositive { recipients.append(path) }
        case .message: resetTransaction()
        }
        var events: [Event] = [.reply(reply)]
        events += run(now: now)
        return events
    }

    /// Closes a session whose client said nothing for longer than the phase allows. A decision the
    /// caller is still making does not count against the client.
    public mutating func checkTimeout(now: Duration) -> [Event] {
        guard phase != .closed, pending == nil else { return [] }
        if phase == .data, now - dataStartedAt >= limits.maximumDataDuration { return close(with: .dataTooLong) }
        let limit = phase == .data ? limits.dataTimeout : limits.commandTimeout
        guard now - lastProgress >= limit else { return [] }
        return close(with: .timeout)
    }

    mutating func close(with reply: SMTPReply?) -> [Event] {
        var events: [Event] = []
        if phase == .data { events.append(.messageAborted) }
        if let reply { events.append(.reply(reply)) }
        phase = .closed
        pending = nil
        input = []
        inputStart = 0
        events.append(.close)
        return events
    }

    mutating func resetTransaction() {
        phase = phase == .awaitingHello ? .awaitingHello : .ready
        sender = MailPath(address: "")
        parameters = [:]
        recipients = []
    }

    /// Runs lines until the input is used up, a decision is pending or the session closes.
    mutating func run(now: Duration) -> [Event] {
        var events: [Event] = []
        while pending == nil, phase != .closed {
            if phase == .data {
                guard scanData(into: &events) else { break }
                continue
            }
            guard let line = nextCommandLine(events: &events) else { break }
            lastProgress = now
            events += handle(SMTPCommand.parse(line))
        }
        compactInput()
        if inputClosed, pending == nil, phase != .closed { events += close(with: nil) }
        return events
    }

    /// The next complete command line without its line end, or `nil` when there is none yet. A line
    /// longer than the limit is answered 500 and skipped.
    mutating func nextCommandLine(events: inout [Event]) -> Substring? {
        while true {
            guard let newline = input[inputStart...].firstIndex(of: UInt8(ascii: "\n")) else {
                if input.count - inputStart > limits.maximumCommandLength {
                    inputStart = input.count
                    if !discardingLine { events += error(.lineTooLong) }
                    discardingLine = true
                }
                return nil
            }
            var end = newline
            if end > inputStart, input[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let bytes = input[inputStart..<end]
            inputStart = newline + 1
            if discardingLine {
                discardingLine = false
                continue
            }
            if bytes.count > limits.maximumCommandLength {
                events += error(.lineTooLong)
                continue
            }
            return Substring(decoding: bytes, as: UTF8.self)
        }
    }

    mutating func compactInput() {
        if inputStart == input.count {
            input.removeAll(keepingCapacity: input.capacity <= 65_536)
            inputStart = 0
        } else if inputStart > 4_096 {
            input.removeFirst(inputStart)
            inputStart = 0
        }
    }

    /// A refusal of the client's doing; too many of them close the session.
    mutating func error(_ reply: SMTPReply) -> [Event] {
        errors += 1
        return errors > limits.maximumErrors ? close(with: .tooManyErrors) : [.reply(reply)]
    }
}
