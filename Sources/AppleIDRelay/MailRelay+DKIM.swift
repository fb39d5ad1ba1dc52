import AppleIDEmailSources
import AppleIDProtocol
import AppleIDProvider
import Foundation
import _CryptoExtras

extension MailRelay {
    /// The team's e-mail source that lets `sender` send (its address, or its domain: spec §11), or
    /// `nil` when the sender is not registered.
    func registeredSource(_ sender: String, teamID: TeamID) async throws -> EmailSource? {
        Self.source(of: sender, in: try await provider.emailSources(teamID: teamID))
    }

    /// DKIM, when the sender's e-mail source (the one its route found) has a key: the message must
    /// carry a signature for the sender's domain that verifies with it, or the relay refuses it. Off
    /// (`nil`) for a source without a key. Checked on the message as received, before the relay
    /// rewrites it; its body is hashed a chunk at a time.
    func dkimRefusal(of head: ReceivedHead, message: any MessageSource, sender: String, source: EmailSource) async throws -> RelayRefusal? {
        guard let encoded = source.dkimPublicKey else { return nil }
        let senderDomain = String(sender.lowercased().split(separator: "@").last ?? "")
        guard let der = Data(base64Encoded: encoded), let key = try? _RSA.Signing.PublicKey(derRepresentation: der) else {
            // A key that no longer reads cannot vouch for anything: refuse rather than skip the check.
            return .dkimFailed(sender, "the registered DKIM key cannot be read")
        }
        switch try await DKIMVerifier.verify(head.headers, message: message, key: key, senderDomain: senderDomain, now: provider.clock.now()) {
        case .success: return nil
        case .failure(let failure): return .dkimFailed(sender, failure.reason)
        }
    }
}
