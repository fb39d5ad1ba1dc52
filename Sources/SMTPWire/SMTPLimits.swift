/// The bounds one SMTP session keeps: what a client may send, and how long it may take.
public struct SMTPLimits: Sendable, Hashable {
    /// The largest message (after dot-unstuffing) accepted; announced as `SIZE` in the EHLO reply.
    public var maximumMessageBytes: Int = 10 * 1024 * 1024
    /// Recipients per transaction (RFC 5321 §4.5.3.1.8 asks for at least 100).
    public var maximumRecipients: Int = 100
    /// A command line, without its CRLF (RFC 5321 §4.5.3.1.4: 512; extensions' parameters need more).
    public var maximumCommandLength: Int = 2_048
    /// Wrong commands tolerated before the session is closed.
    public var maximumErrors: Int = 10
    /// How long the server waits for the next command (RFC 5321 §4.5.3.2.7 suggests 5 minutes).
    public var commandTimeout: Duration = .seconds(300)
    /// How long the server waits for more of the message during DATA (§4.5.3.2.6: 3 minutes).
    public var dataTimeout: Duration = .seconds(180)
    /// The longest a message may take from DATA to its end, however steadily it trickles in: the
    /// data timeout alone is reset by every byte.
    public var maximumDataDuration: Duration = .seconds(600)

    public init() {}
}
