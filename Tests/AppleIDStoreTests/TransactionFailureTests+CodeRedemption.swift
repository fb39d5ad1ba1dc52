import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Synchronization

/// The engine's token endpoint over a store, for tests that fail one write of a code exchange: the
/// fixture's team, web client and approval (grant-1 with its code), and a key for client secrets.
struct CodeExchangeFixture {
    /// The code whose hash ``Fixture/code(hash:consumedAt:)`` stores, and the RFC 7636 (appendix B)
    /// verifier of that fixture's challenge.
    static let code = "c0de.0.test.exchange"
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"

    let provider: AppleIDProvider
    let random: RepeatingRandomSource
    let secret: String

    static func start(on store: any ProviderStore) async throws -> CodeExchangeFixture {
        let clock = ManualClock(Fixture.date(60))
        let random = RepeatingRandomSource()
        let team: TeamID = "TEAM123456"
        try await store.save(DeveloperTeam(id: team, name: "Team"))
        try await store.save(AppGroup(primaryAppID: TransactionFailureTests.groupID, teamID: team, displayName: "App"))
        try await store.save(
            RegisteredClient(
                id: "com.example.web", kind: .service, teamID: team, groupID: TransactionFailureTests.groupID,
                returnURLs: ["https://example.com/cb"]))
        try await store.save(Fixture.account())
        try await store.save(
            Approval(
                consent: TransactionFailureTests.consent, identity: TransactionFailureTests.identity, grant: Fixture.grant(id: "grant-1"),
                code: Fixture.code(hash: OpaqueToken.hash(code))))
        let provider = try await AppleIDProvider.start(
            configuration: ProviderConfiguration(issuer: "https://appleid.example.com"), storage: .store(store), clock: clock, random: random)
        let key = try await provider.createKey(teamID: team, primaryAppID: TransactionFailureTests.groupID, name: "Redemption key")
        let pem = try await provider.downloadKey(key.id, teamID: team)
        let secret = try await ClientSecretMinter(teamID: team, keyID: key.id, privateKeyPEM: pem).mint(
            clientID: "com.example.web", issuedAt: clock.now(), lifetime: 3600)
        return CodeExchangeFixture(provider: provider, random: random, secret: secret)
    }

    /// `POST /auth/token` with the fixture's code, as its client sends it.
    func redeem() async -> Result<TokenResponse, OAuthError> {
        await provider.token(
            TokenRequest(
                grantType: "authorization_code", clientID: "com.example.web", clientSecret: secret, code: Self.code,
                redirectURI: "https://example.com/cb", codeVerifier: Self.verifier))
    }

    /// The access token the engine issues while ``RepeatingRandomSource/repeats`` is on, stored
    /// beforehand under grant-1: its hash is taken, so the exchange's token insert fails.
    static let takenAccessToken = TokenRecord(
        tokenHash: OpaqueToken.hash(OpaqueToken.make(.accessToken, random: RepeatingRandomSource(repeating: true))), kind: .access,
        grantID: "grant-1", clientID: "com.example.web", createdAt: Fixture.t0, expiresAt: Fixture.date(3600))
}

/// Randomness that draws only zero bytes while ``repeats`` is on, so every token it makes then is
/// the same (a way to make a token insert fail on a taken hash), and fresh bytes otherwise.
final class RepeatingRandomSource: RandomSource {
    private let fresh = SeededRandomSource(seed: "repeating")
    private let repeating: Mutex<Bool>

    init(repeating: Bool = false) { self.repeating = Mutex(repeating) }

    var repeats: Bool {
        get { repeating.withLock { $0 } }
        set { repeating.withLock { $0 = newValue } }
    }

    func bytes(count: Int) -> [UInt8] { repeats ? [UInt8](repeating: 0, count: count) : fresh.bytes(count: count) }
}

extension Result {
    /// The failure, or nil when the call succeeded.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
