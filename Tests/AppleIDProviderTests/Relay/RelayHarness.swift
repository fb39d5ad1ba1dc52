import AppleIDEmailSources
import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation
import Synchronization
import Testing

/// A provider whose Apple ID (maria@example.com) hid her e-mail from team A, which registered
/// `example.com` as an e-mail source.
struct RelayHarness {
    let harness: ProviderHarness
    let relay: MailRelay
    let relayAddress: String
    var accountID: String

    static func make(smarthost: Bool = false, teamStorageQuota: Int? = RelaySettings().teamStorageQuota) async throws -> RelayHarness {
        let harness = try await ProviderHarness.make()
        var settings = RelaySettings()
        settings.usesSmarthost = smarthost
        settings.teamStorageQuota = teamStorageQuota
        let relayAddress = try #require(try harness.claims(try await harness.authorize(group: "com.a.app", hideEmail: true)).email)
        _ = try await harness.provider.addEmailSources("example.com, shop@example.org", teamID: "TEAMAAAAAA")
        let account = try #require(try await harness.store.account(appleID: "maria@example.com"))
        return RelayHarness(
            harness: harness, relay: MailRelay(provider: harness.provider, store: harness.store, settings: settings), relayAddress: relayAddress,
            accountID: account.id)
    }

    static let message = Array("From: \"Example News\" <news@example.com>\r\nTo: someone\r\nSubject: Weekly\r\n\r\nHello!\r\n".utf8)

    func send(from sender: String = "news@example.com", to recipient: String, source: [UInt8] = message) async throws -> (rcpt: Int, data: Int?) {
        let rcpt = try await relay.checkRecipient(recipient, sender: sender)
        guard rcpt.isPositive else { return (rcpt.code, nil) }
        return (rcpt.code, try await relay.accept(sender: sender, recipients: [recipient], source: source).code)
    }
}

/// A smarthost that answers from a script, and records what it was given.
final class ScriptedTransport: MailTransport {
    let answers: Mutex<[MailTransportResult]>
    let sent = Mutex<[(from: String, to: String, source: String)]>([])

    init(_ answers: [MailTransportResult]) { self.answers = Mutex(answers) }

    /// The largest piece it was lent, and how many pieces.
    let pieces = Mutex<(largest: Int, count: Int)>((0, 0))

    func send(from sender: String, to recipient: String, message: OutgoingRelayMessage) async -> MailTransportResult {
        var source: [UInt8] = []
        do {
            try await message.forEachChunk { piece in
                pieces.withLock { $0 = (max($0.largest, piece.count), $0.count + 1) }
                source += piece
            }
        } catch {
            return .transientFailure("unreadable: \(error)")
        }
        sent.withLock { $0.append((sender, recipient, String(decoding: source, as: UTF8.self))) }
        return answers.withLock { $0.isEmpty ? .sent : $0.removeFirst() }
    }
}
