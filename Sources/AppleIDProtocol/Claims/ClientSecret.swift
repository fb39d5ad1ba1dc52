import Foundation
import JWTKit

/// Mints the ES256 client secret Apple asks a relying party to send (spec §5):
/// header `alg: ES256`, `kid`: the Key ID; claims `iss` Team ID, `iat`, `exp`, `aud`, `sub` client ID.
public struct ClientSecretMinter: Sendable {
    public enum MintError: Error, Equatable, CustomStringConvertible {
        case lifetimeTooLong(seconds: Int)
        case lifetimeNotPositive
        case invalidPrivateKey

        public var description: String {
            switch self {
            case .lifetimeTooLong(let seconds):
                "a lifetime of \(seconds) s exceeds Apple's maximum of \(ClientSecretClaims.maximumLifetime) s (about 182 days)"
            case .lifetimeNotPositive: "the lifetime must be positive"
            case .invalidPrivateKey: "the key is not a PEM-encoded PKCS#8 EC P-256 private key (Apple's .p8 format)"
            }
        }
    }

    public let teamID: TeamID
    public let keyID: KeyID
    private let key: ES256PrivateKey

    /// - Parameter privateKeyPEM: the contents of `AuthKey_<KeyID>.p8`.
    public init(teamID: TeamID, keyID: KeyID, privateKeyPEM: String) throws {
        self.teamID = teamID
        self.keyID = keyID
        do {
            self.key = try ES256PrivateKey(pem: privateKeyPEM)
        } catch {
            throw MintError.invalidPrivateKey
        }
    }

    /// A signed client secret for `clientID`, valid from `issuedAt` for `lifetime` seconds.
    public func mint(
        clientID: ClientID, audience: String = "https://appleid.apple.com", issuedAt: Date, lifetime: Int
    ) async throws -> String {
        guard lifetime > 0 else { throw MintError.lifetimeNotPositive }
        guard lifetime <= ClientSecretClaims.maximumLifetime else { throw MintError.lifetimeTooLong(seconds: lifetime) }
        let iat = Int(issuedAt.timeIntervalSince1970)
        let claims = ClientSecretClaims(
            issuer: teamID.rawValue, issuedAt: iat, expiresAt: iat + lifetime, audience: audience, subject: clientID.rawValue)
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: key, kid: JWKIdentifier(string: keyID.rawValue))
        return try await keys.sign(claims, kid: JWKIdentifier(string: keyID.rawValue), header: ["alg": "ES256"])
    }
}
