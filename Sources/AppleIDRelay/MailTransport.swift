import AppleIDProvider
import SMTPWire

/// Hands a message to the next server (`siwa serve`: SMTP to the smarthost). The relay's queue calls
/// it for each due delivery and decides, from the result, what happens next.
public protocol MailTransport: Sendable {
    func send(from sender: String, to recipient: String, source: [UInt8]) async -> MailTransportResult
}

/// The relay's transports answer as an SMTP client does.
public typealias MailTransportResult = SMTPDeliveryResult
