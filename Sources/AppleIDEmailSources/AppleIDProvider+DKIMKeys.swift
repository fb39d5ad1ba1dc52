import AppleIDProtocol
import AppleIDProvider
import Foundation
import _CryptoExtras

/// DKIM as a pluggable check on the console's e-mail sources (spec §11): off until the developer
/// registers a source's public key; from then on the relay takes that source's mail only signed.
extension AppleIDProvider {
    /// Registers the DKIM public key of an e-mail source, or removes it with `nil` (or blank text).
    /// Takes the key as its DNS TXT record (`v=DKIM1; k=rsa; p=…`), as PEM, or as the bare base64;
    /// an RSA key under 1024 bits is refused (RFC 8301 §3.2). Returns the team's sources.
    @discardableResult
    public func setDKIMKey(_ text: String?, forEmailSource source: String, teamID: TeamID) async throws -> [EmailSource] {
        let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let key = trimmed.isEmpty ? nil : try Self.dkimPublicKey(trimmed).derRepresentation.base64EncodedString()
        guard try await emailSourceStore.setDKIMKey(key, teamID: teamID, value: source.lowercased()) else {
            throw ConsoleError.notFound("\(source) is not an e-mail source of this team.")
        }
        return try await emailSourceStore.emailSources(teamID: teamID)
    }

    static func dkimPublicKey(_ text: String) throws(ConsoleError) -> _RSA.Signing.PublicKey {
        let invalid = ConsoleError.invalid("Enter the DKIM public key: its DNS record (v=DKIM1; k=rsa; p=…), PEM, or base64.")
        let base64: String
        if text.contains("-----BEGIN") {
            base64 = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        } else if text.contains("=") && text.contains(";") || text.hasPrefix("p=") || text.hasPrefix("v=") {
            let tags = DKIMTagList.parse(text)
            guard tags["k"].map({ $0.lowercased() == "rsa" }) ?? true, let value = tags["p"] else { throw invalid }
            base64 = value
        } else {
            base64 = text
        }
        guard let der = Data(base64Encoded: base64.filter { !$0.isWhitespace }),
            let key = try? _RSA.Signing.PublicKey(derRepresentation: der)
        else { throw invalid }
        guard key.keySizeInBits >= 1024 else { throw ConsoleError.invalid("The DKIM key has \(key.keySizeInBits) bits; use at least 1024.") }
        return key
    }
}
