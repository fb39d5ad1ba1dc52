import AppleIDConsole
import AppleIDEmailSources
import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation

extension AppleIDEmulator {
    /// Adds `url` to the Return URLs of the emulator's Services ID, by the console's rules (https, or
    /// http on a loopback host; no fragment): for an app whose client uses its own callback, such as
    /// `http://127.0.0.1:8081/auth/apple/callback`.
    public func addReturnURL(_ url: String) async throws {
        _ = try await provider.addReturnURL(url, servicesID: ClientID(rawValue: servicesID), teamID: TeamID(rawValue: teamID))
    }

    /// Registers `source` (a domain such as `shop.example`, or one address) as an e-mail source of
    /// the emulator's team: the private relay forwards only mail from registered sources.
    public func addEmailSource(_ source: String) async throws {
        _ = try await provider.addEmailSources(source, teamID: TeamID(rawValue: teamID))
    }

    /// Hands a message to the private relay as the app's mail server would over SMTP: from `sender`
    /// (an ``addEmailSource(_:)``) to `recipients` (relay addresses). What the relay forwards is then
    /// in ``mailbox(for:)``. Throws ``EmulatorError/mailRefused(code:text:)`` with the relay's reply
    /// when it refuses (an unregistered sender, forwarding turned off, an unknown address).
    ///
    /// ```swift
    /// try await apple.addEmailSource("shop.example")
    /// try await apple.sendMail(from: "orders@shop.example", to: [relayAddress], subject: "Your order", text: "Thank you!")
    /// ```
    public func sendMail(from sender: String, to recipients: [String], subject: String, text: String) async throws {
        let lines = [
            "From: <\(sender)>", "To: \(recipients.map { "<\($0)>" }.joined(separator: ", "))", "Subject: \(subject)",
            "Date: \(Self.mailDate(clock.now()))",
            "Message-ID: <\(UUID().uuidString.lowercased())@\(sender.split(separator: "@").last ?? "localhost")>",
            "MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8", "",
        ]
        let body = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
        try await sendMail(from: sender, to: recipients, source: Array((lines.joined(separator: "\r\n") + "\r\n" + body + "\r\n").utf8))
    }

    /// ``sendMail(from:to:subject:text:)`` with the whole message (RFC 5322, CRLF line ends) as it is.
    public func sendMail(from sender: String, to recipients: [String], source: [UInt8]) async throws {
        let reply = try await relay.accept(sender: sender, recipients: recipients, source: source)
        guard reply.code == 250 else { throw EmulatorError.mailRefused(code: reply.code, text: reply.lines.joined(separator: " ")) }
    }

    static func mailDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }
}

extension AppleIDEmulator {
    /// What `getCredentialState(forUserID:)` tells the emulated app about `subject` (its `sub`):
    /// `authorized`, `revoked` (stopped using, Apple ID deleted, or the app revoked), `transferred` or
    /// `notFound`.
    public func credentialState(subject: String) async throws -> CredentialState {
        try await provider.credentialState(subject: Subject(rawValue: subject), clientID: ClientID(rawValue: servicesID)) ?? .notFound
    }

    /// The domain of the relay's addresses (and its SMTP greeting name).
    public var relayDomain: String { provider.configuration.relayDomain }
}
