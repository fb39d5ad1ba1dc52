/// What became of one message handed to the next SMTP server (RFC 5321 §4.2.1): the relay's queue
/// and an app's mailer decide from it whether to try again.
public enum SMTPDeliveryResult: Sendable, Hashable {
    case sent
    /// Try again later: a 4xx reply, or a connection that failed or timed out.
    case transientFailure(String)
    /// Do not try again: a 5xx reply, quoted (`550 5.7.1 …`).
    case permanentFailure(String)
}
