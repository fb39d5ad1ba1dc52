import AppleIDProtocol
import Crypto
import Foundation
import Synchronization

/// Authenticates `client_secret_post` as Apple does (spec §5): an ES256 JWT whose `kid` names a key
/// registered to the client's team and group, judged by the one ``ClientSecretRulebook`` that the
/// kit's inspector also lists (`iss` the Team ID, `sub` the client ID, `aud` the issuer, `iat` not
/// in the future beyond the clock skew, `exp` in the future and at most 15,777,000 s from now).
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

        // Read once: the rulebook judges the header, the signature and the claims of this one reading.
        let reading = ClientSecretReading(secret)
        let nowSeconds = Int(now.timeIntervalSince1970)
        let shapeRules = ClientSecretRulebook(audiences: configuration.acceptedClientSecretAudiences, issuedAtSkew: skew)
        if let failure = shapeRules.firstFailure(on: reading, now: nowSeconds, among: [.structure, .algorithm, .keyID]) {
            throw Self.refusal(failure)
        }
        // The kid rule passed: the header has one, in Apple's shape.
        guard let kid = reading.header?.keyID else { throw OAuthError.invalidClient("client secret header has no kid") }
        guard let key = try await registry.developerKey(KeyID(rawValue: kid)) else {
            throw OAuthError.invalidClient("client secret kid \(kid) is not a registered Sign in with Apple key")
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
        guard let publicKey = try? P256.Signing.PublicKey(pemRepresentation: key.publicKeyPEM) else {
            throw OAuthError.invalidClient("registered key \(key.id) cannot be loaded")
        }
        let rules = ClientSecretRulebook(
            clientID: client.id.rawValue, teamID: key.teamID.rawValue, keyID: key.id.rawValue,
            audiences: configuration.acceptedClientSecretAudiences, publicKey: publicKey, issuedAtSkew: skew)
        // The engine acts on the first failure; every rule after it is not even judged.
        if let failure = rules.firstFailure(on: reading, now: nowSeconds) { throw Self.refusal(failure) }
        // Every rule passed, so exp is a plausible time after now.
        let expiresAt = reading.claims?.expiresAt.value ?? nowSeconds
        cache.remember(
            secretHash: secretHash, for: clientID, teamID: key.teamID, keyID: key.id,
            expiresAt: min(Date(timeIntervalSince1970: TimeInterval(expiresAt)), now.addingTimeInterval(VerifiedSecretCache.recheckInterval)))
        return AuthenticatedClient(client: client, teamID: key.teamID)
    }

    private var skew: Int { Int(configuration.clientSecretClockSkew) }

    /// Apple's bare `invalid_client` on the wire; the rule and its explanation for the log.
    private static func refusal(_ verdict: ClientSecretVerdict) -> OAuthError {
        OAuthError.invalidClient("client secret: \(verdict.explanation)")
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
