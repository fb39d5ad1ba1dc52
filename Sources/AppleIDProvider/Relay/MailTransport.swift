/// Hands a message to the next server (`siwa serve`: SMTP to the smarthost). The relay's queue calls
/// it for each due delivery and decides, from the result, what happens next.
public protocol MailTransport: Sendable {
    func send(from sender: String, to recipient: String, source: [UInt8]) async -> MailTransportResult
}

public enum MailTransportResult: Sendable, Hashable {
    case sent
    /// Try again later (a 4xx reply, a connection that failed or timed out).
    case transientFailure(String)
    /// Do not try again (a 5xx reply): the sender gets a bounce.
    case permanentFailure(String)
}
