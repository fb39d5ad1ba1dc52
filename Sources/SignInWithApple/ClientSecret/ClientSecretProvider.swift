import AppleIDProtocol
import Crypto
import Foundation

/// The team's Sign in with Apple key, as Apple's developer console hands it out.
public struct AppleCredentials: Sendable, Hashable {
    public var teamID: String
    public var keyID: String
    /// The contents of `AuthKey_<KeyID>.p8` (PEM, PKCS#8, P-256). A key that does not load is
    /// refused with a ``PrivateKeyError`` naming the mistake (escaped `\n`, a file path, an RSA key, …).
    public var privateKeyPEM: String

    public init(teamID: String, keyID: String, privateKeyPEM: String) {
        self.teamID = teamID
        self.keyID = keyID
        self.privateKeyPEM = privateKeyPEM
    }
}

/// Mints the ES256 client secret for one client ID, reuses it, and mints a new one before it expires.
public actor ClientSecretProvider {
    public let clientID: String
    public let audience: String
    /// Lifetime of each secret; at most Apple's 15,777,000 s.
    public let lifetime: Int
    /// A secret is replaced once less than this remains.
    public let renewalMargin: TimeInterval
    private let minter: ClientSecretMinter
    private let credentials: AppleCredentials
    private let publicKey: P256.Signing.PublicKey
    private let clock: @Sendable () -> Date
    private var current: (secret: String, expiresAt: Date)?

    public init(
        credentials: AppleCredentials, clientID: String, environment: AppleEnvironment, lifetime: Int = 3600,
        renewalMargin: TimeInterval = 300, clock: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        guard lifetime > 0, lifetime <= ClientSecretClaims.maximumLifetime else {
            throw ClientSecretMinter.MintError.lifetimeTooLong(seconds: lifetime)
        }
        self.publicKey = try credentials.signingKey().publicKey
        self.credentials = credentials
        self.minter = try ClientSecretMinter(
            teamID: TeamID(rawValue: credentials.teamID), keyID: KeyID(rawValue: credentials.keyID),
            privateKeyPEM: credentials.privateKeyPEM)
        self.clientID = clientID
        self.audience = environment.clientSecretAudience
        self.lifetime = lifetime
        self.renewalMargin = min(renewalMargin, TimeInterval(lifetime) / 2)
        self.clock = clock
    }

    /// A valid secret, minted now if there is none or the current one is about to expire.
    public func secret() async throws -> String {
        let now = clock()
        if let current, current.expiresAt.timeIntervalSince(now) > renewalMargin { return current.secret }
        let secret = try await minter.mint(clientID: ClientID(rawValue: clientID), audience: audience, issuedAt: now, lifetime: lifetime)
        let issuedAt = Date(timeIntervalSince1970: floor(now.timeIntervalSince1970))
        current = (secret, issuedAt.addingTimeInterval(TimeInterval(lifetime)))
        return secret
    }

    /// When the current secret expires (`nil` before the first one is minted).
    public var expiresAt: Date? { current?.expiresAt }

    /// The kit's judgement of `secret` against Apple's rules, with this provider's key, Team ID, Key ID
    /// and client ID as the expected values: what an `invalid_client` answer is explained with.
    public nonisolated func inspect(_ secret: String) -> ClientSecretInspector.Report {
        // The inspector only fails to build from a PEM; a public key value always builds it.
        let inspector = try? ClientSecretInspector(
            key: .publicKey(publicKey), clientID: clientID, teamID: credentials.teamID, keyID: credentials.keyID, audience: audience,
            clock: clock)
        return inspector?.inspect(secret) ?? ClientSecretInspector.Report(rules: [], header: nil, claims: nil)
    }

    /// The Team ID and Key ID the secrets are minted with.
    nonisolated var identity: (teamID: String, keyID: String) { (credentials.teamID, credentials.keyID) }
}
