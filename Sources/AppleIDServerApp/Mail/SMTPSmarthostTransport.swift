import AppleIDProvider
import AppleIDRelay
import SMTPSending
import SMTPWire

/// Sends relayed mail to the upstream SMTP server of `--smtp-smarthost host:port`, one
/// ``SMTPClient`` conversation per message. A 5xx reply is permanent (a bounce), anything else that
/// fails is tried again later.
package struct SMTPSmarthostTransport: MailTransport {
    package let client: SMTPClient
    package var host: String { client.host }
    package var port: Int { client.port }

    package init(host: String, port: Int, hostname: String, timeout: Duration = .seconds(60)) {
        client = SMTPClient(host: host, port: port, hostname: hostname, timeout: timeout)
    }

    /// `host:port` as `--smtp-smarthost` takes it.
    package static func parse(_ text: String, hostname: String) -> SMTPSmarthostTransport? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (1...65_535).contains(port) else { return nil }
        let host = String(text[..<colon])
        return host.isEmpty ? nil : SMTPSmarthostTransport(host: host, port: port, hostname: hostname)
    }

    /// The message goes out as the store lends it, a chunk at a time.
    package func send(from sender: String, to recipient: String, message: OutgoingRelayMessage) async -> MailTransportResult {
        await client.send(from: sender, to: recipient, pieces: message.forEachChunk)
    }
}
