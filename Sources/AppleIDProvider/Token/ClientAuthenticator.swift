import AppleIDProtocol
import Crypto
import Foundation
import JWTKit
import Synchronization

/// Authenticates `client_secret_post` as Apple does (spec §5): an ES256 JWT whose `kid` names a key
/// registered to the client's team and group, `iss` the Team ID, `sub` the client ID, `aud` the
/// issuer, `iat` not in the future, `exp` in the future and at most 15,777,000 s after `iat`.
///
/// Every failure is `invalid_client` on the wire, with the precise reason kept for the log.
/// A verified secret is cached by its SHA-256 until it expires: relying parties reuse a secret for
/// hours, and an ECDSA verification is the most expensive step after signing the id_token.
struct ClientAuthenticator: Sendable {
    let registry: any RegistryStore
    let clients: RegistryCache
    let configuration: ProviderConfiguration
    let cache: VerifiedSecretCache

    func authenticate(clientID rawClientID: String?, secret: String?, now: Date) async throws -> RegisteredClient {
        try await authenticate(clientID: rawClientID, secret: secret, now: now, formerTeams: { _ in [] }).client
    }

    /// Authenticates a client whose secret may also come from a team the client's group was
    /// transferred away from (`formerTeams`; the user-migration calls of spec §17.4). The secret's
    /// team is returned with the client.
    func authenticate(
        clientID rawClientID: String?, secret: String?, now: Date, formerTeams: (RegisteredClient) async throws -> [TeamID]
    ) async throws -> AuthenticatedClient {
        guard let rawClientID, !rawClientID.isEmpty else { throw OAuthError.invalidRequest("client_id is missing") }
        guard let secret, !secret.isEmpty else { throw OAuthError.invalidClient("client_secret is missing") }
        let clientID = ClientID(rawValue: rawClientID)
        guard let client = try await clients.client(clientID, now: now) else {
            throw OAuthError.invalidClient("client_id \(rawClientID) is not registered")
        }
        let teams = [client.teamID] + (try await formerTeams(client))
        let secretHash = SHA256.hash(data: Array(secret.utf8))
        if let team = cache.verifiedTeam(secretHash: secretHash, for: clientID, now: now), teams.contains(team) {
            return AuthenticatedClient(client: client, teamID: team)
        }

        let (header, claims) = try decode(secret)
        guard header.alg == "ES256" else {
            throw OAuthError.invalidClient("client secret alg is \(header.alg ?? "missing"), must be ES256")
        }
        guard let kid = header.kid, !kid.isEmpty else { throw OAuthError.invalidClient("client secret header has no kid") }
        guard let key = try await registry.developerKey(KeyID(rawValue: kid)) else {
            throw OAuthError.invalidClient("client secret kid \(UntrustedText.excerpt(kid)) is not a registered Sign in with Apple key")
        }
        if let revokedAt = key.revokedAt {
            throw OAuthError.invalidClient("client secret kid \(kid) names a key revoked at \(revokedAt.ISO8601Format()); create a new key")
        }
        guard teams.contains(key.teamID) else {
            throw OAuthError.invalidClient("key \(kid) belongs to team \(key.teamID), not to \(client.id)'s team \(client.teamID)")
        }
        guard key.primaryAppID == client.groupID else {
            throw OAuthError.invalidClient("key \(kid) is for primary App ID \(key.primaryAppID), not \(client.id)'s group \(client.groupID)")
        }
        try await verifySignature(secret, key: key)
        try check(claims, client: client, teamID: key.teamID, now: now)
        cache.remember(
            secretHash: secretHash, for: clientID, teamID: key.teamID, keyID: key.id,
            expiresAt: min(Date(timeIntervalSince1970: TimeInterval(claims.expiresAt)), now.addingTimeInterval(VerifiedSecretCache.recheckInterval)))
        return AuthenticatedClient(client: client, teamID: key.teamID)
    }

    private func decode(_ secret: String) throws -> (MandatoryHeader, ClientSecretClaims) {
        let parts = secret.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerBytes = try? Base64URL.decode(String(parts[0])),
            let header = try? JSONDecoder().decode(MandatoryHeader.self, from: Data(headerBytes))
        else { throw OAuthError.invalidClient("client secret is not a compact JWS") }
        guard let claimBytes = try? Base64URL.decode(String(parts[1])) else {
            throw OAuthError.invalidClient("client secret payload is not base64url")
        }
        do {
            return (header, try JSONDecoder().decode(ClientSecretClaims.self, from: Data(claimBytes)))
        } catch {
            throw OAuthError.invalidClient("client secret claims are missing or malformed (need iss, iat, exp, aud, sub as strings and integers)")
        }
    }

    private func verifySignature(_ secret: String, key: DeveloperKey) async throws {
        let keys = JWTKeyCollection()
        do {
            await keys.add(ecdsa: try ES256PublicKey(pem: key.publicKeyPEM), kid: JWKIdentifier(string: key.id.rawValue))
        } catch {
            throw OAuthError.invalidClient("registered key \(key.id) cannot be loaded")
        }
        do {
            _ = try await keys.verify(secret, as: ClientSecretClaims.self)
        } catch {
            throw OAuthError.invalidClient("client secret signature does not verify with key \(key.id) (ES256, raw R||S)")
        }
    }

    private func check(_ claims: ClientSecretClaims, client: RegisteredClient, teamID: TeamID, now: Date) throws {
        // `iat` and `exp` come from outside: anything beyond the range of real times is refused
        // before any arithmetic on it, so that `exp - iat` and `now - exp` cannot overflow (a trap).
        for (name, value) in [("iat", claims.issuedAt), ("exp", claims.expiresAt)] where !ClientSecretClaims.plausibleTimes.contains(value) {
            throw OAuthError.invalidClient("client secret \(name) \(value) is not a time in seconds since 1970 (0 to year 9999)")
        }
        let nowSeconds = Int(now.timeIntervalSince1970)
        guard WireMatch.exact(claims.issuer, teamID.rawValue) else {
            throw OAuthError.invalidClient("client secret iss is \(UntrustedText.excerpt(claims.issuer)), must be the Team ID \(teamID)")
        }
        guard WireMatch.exact(claims.subject, client.id.rawValue) else {
            throw OAuthError.invalidClient("client secret sub is \(UntrustedText.excerpt(claims.subject)), must equal client_id \(client.id)")
        }
        guard configuration.acceptedClientSecretAudiences.containsExactly(claims.audience) else {
            throw OAuthError.invalidClient(
                "client secret aud is \(UntrustedText.excerpt(claims.audience)), must be \(configuration.issuer) or \(ProviderConfiguration.appleIssuer)"
            )
        }
        guard claims.issuedAt <= nowSeconds + Int(configuration.clientSecretClockSkew) else {
            throw OAuthError.invalidClient("client secret iat is \(claims.issuedAt - nowSeconds) s in the future")
        }
        guard claims.expiresAt > nowSeconds else {
            throw OAuthError.invalidClient("client secret expired \(nowSeconds - claims.expiresAt) s ago")
        }
        let lifetime = claims.expiresAt - claims.issuedAt
        guard lifetime <= ClientSecretClaims.maximumLifetime else {
            let days = Double(lifetime) / 86_400
            throw OAuthError.invalidClient(
                "client secret exp is \(String(format: "%.0f", days.rounded(.up))) days after iat (\(lifetime) s; the maximum is 15777000 s)")
        }
    }

    private struct MandatoryHeader: Decodable {
        var alg: String?
        var kid: String?
    }
}

/// A client authenticated by a secret of `teamID`: its own team, or during a transfer window the
/// team it was transferred from.
struct AuthenticatedClient: Sendable {
    let client: RegisteredClient
    let teamID: TeamID
}

/// Client secrets already verified, by SHA-256, until they expire.
final class VerifiedSecretCache: Sendable {
    private struct Entry {
        let clientID: ClientID
        let teamID: TeamID
        let keyID: KeyID
        let expiresAt: Date
    }

    private let entries = Mutex<[SHA256.Digest: Entry]>([:])
    private let capacity: Int

    /// A verified secret is checked again after this long, so a key revoked through another server
    /// instance is refused here within this time as well.
    static let recheckInterval: TimeInterval = 300

    init(capacity: Int = 10_000) { self.capacity = capacity }

    /// The team whose key signed this secret for `clientID`, if it was verified and has not expired.
    func verifiedTeam(secretHash: SHA256.Digest, for clientID: ClientID, now: Date) -> TeamID? {
        entries.withLock { entries in
            guard let entry = entries[secretHash] else { return nil }
            guard entry.expiresAt > now else {
                entries[secretHash] = nil
                return nil
            }
            return entry.clientID == clientID ? entry.teamID : nil
        }
    }

    func remember(secretHash: SHA256.Digest, for clientID: ClientID, teamID: TeamID, keyID: KeyID, expiresAt: Date) {
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[secretHash] = Entry(clientID: clientID, teamID: teamID, keyID: keyID, expiresAt: expiresAt)
        }
    }

    /// Forgets every secret the key signed (the key was revoked in this process).
    func forget(keyID: KeyID) {
        entries.withLock { entries in entries = entries.filter { $0.value.keyID != keyID } }
    }
}
