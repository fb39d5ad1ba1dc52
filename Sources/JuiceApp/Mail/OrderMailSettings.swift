/// Where Juice's order confirmations go and whom they come from. The defaults work with a local
/// `siwa serve`: its relay listens on 127.0.0.1:2525, and its demo team registers ``defaultSender``
/// as an e-mail source, without which the relay refuses the mail (spec §11).
public struct OrderMailSettings: Sendable, Hashable {
    public static let defaultSender = "orders@juice.example.com"

    /// The SMTP server Juice hands its mail to: the relay, or any mail server.
    public var host: String
    public var port: Int
    /// The envelope sender and `From:` address: a registered e-mail source of the app's team.
    public var sender: String
    public var senderName: String

    public init(host: String = "127.0.0.1", port: Int = 2525, sender: String = Self.defaultSender, senderName: String = "Juice") {
        self.host = host
        self.port = port
        self.sender = sender
        self.senderName = senderName
    }
}
