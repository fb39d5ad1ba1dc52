/// Where the engine's own messages go (a team invitation's link): the private relay's mailboxes in
/// `siwa serve` and the emulator. Declared here, so that the engine sends mail without knowing the
/// relay (`AppleIDRelay` depends on the engine, never the other way).
public protocol NoticeSender: Sendable {
    /// Stores a plain-text message of the server's own to `address`, to be delivered like relayed
    /// mail, before it returns; answers the message's id.
    func sendNotice(to address: String, subject: String, text: String) async throws -> String
}
