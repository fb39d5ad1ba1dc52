import SMTPWire

/// Drives a session as a client would: text in, the replies' wire text and the other events out.
struct SessionDriver {
    var session: SMTPSession
    var now: Duration = .zero
    /// Every `messageBytes` event, concatenated since the last `messageAborted`.
    var message: [UInt8] = []
    var events: [SMTPSession.Event] = []

    init(limits: SMTPLimits = SMTPLimits()) {
        session = SMTPSession(hostname: "relay.test", limits: limits, now: .zero)
    }

    /// Sends `text` and returns the replies' wire text, answering nothing pending.
    @discardableResult
    mutating func send(_ text: String) -> String { record(session.receive(Array(text.utf8), now: now)) }

    @discardableResult
    mutating func resolve(_ reply: SMTPReply) -> String { record(session.resolve(reply, now: now)) }

    @discardableResult
    mutating func endInput() -> String { record(session.inputEnded()) }

    @discardableResult
    mutating func advance(_ duration: Duration) -> String {
        now += duration
        return record(session.checkTimeout(now: now))
    }

    private mutating func record(_ new: [SMTPSession.Event]) -> String {
        events += new
        var wire = ""
        for event in new {
            switch event {
            case .reply(let reply): wire += String(decoding: reply.bytes, as: UTF8.self)
            case .messageBytes(let bytes): message += bytes
            case .messageAborted: message = []
            default: break
            }
        }
        return wire
    }

    var closed: Bool { events.last == .close }
    var completed: [SMTPSession.Envelope] {
        events.compactMap { if case .messageComplete(let envelope) = $0 { envelope } else { nil } }
    }
    var checkedRecipients: [String] {
        events.compactMap { if case .checkRecipient(let path, _) = $0 { path.address } else { nil } }
    }
}
