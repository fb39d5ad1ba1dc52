import AppleIDMemoryStore
import AppleIDProtocol
import Crypto
import Foundation
import SignInWithApple
import Testing

@testable import AppleIDProvider

/// One client-secret rulebook (spec §5): the engine's client authenticator, which acts on the first
/// failure, and the kit's inspector, which lists every verdict, accept and refuse the same secrets,
/// and the engine logs the reason the inspector shows first.
@Suite("Client secret rules: the engine and the inspector agree")
struct ClientSecretAgreementTests {
    static let key = P256.Signing.PrivateKey()
    static let teamID = "TEAM123456"
    static let keyID = "KEY1234567"
    /// A key registered under an ID that is not Apple's shape (11 characters).
    static let oddKeyID = "KEY12345678"
    static let clientID = "com.example.app.web"
    static let groupID = "com.example.app"
    static let issuer = "https://id.example.com"
    static let apple = "https://appleid.apple.com"
    static let now = 1_795_240_800

    /// One secret and the verdict Apple's rules give it.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let accepted: Bool
        /// Words the refusal's reason must contain.
        var reasonMentions: String? = nil
        var kid = ClientSecretAgreementTests.keyID
        var issuedAt = ClientSecretAgreementTests.now
        var expiresAt = ClientSecretAgreementTests.now + 3600
        var audience: JSONValue = .string(ClientSecretAgreementTests.apple)
        var testDescription: String { name }
    }

    enum JSONValue: Sendable {
        case string(String)
        case strings([String])
        case integer(Int)

        var object: Any {
            switch self {
            case .string(let text): text
            case .strings(let texts): texts
            case .integer(let number): number
            }
        }
    }

    static let cases: [Case] = [
        Case(name: "a secret minted now for an hour", accepted: true),
        Case(name: "aud is this server's issuer", accepted: true, audience: .string(issuer)),
        Case(name: "aud is another site", accepted: false, reasonMentions: "aud", audience: .string("https://evil.example.com")),
        // golang-jwt v4 and go-jose v2 write `aud` as an array by default; Apple wants a string.
        Case(name: "aud is a one-element JSON array", accepted: false, reasonMentions: "array", audience: .strings([apple])),
        Case(name: "aud is a number", accepted: false, reasonMentions: "aud", audience: .integer(7)),
        // `iat` in the future: Apple does not document a tolerance; both allow the 60 s clock skew.
        Case(name: "iat 30 s in the future (inside the 60 s skew)", accepted: true, issuedAt: now + 30, expiresAt: now + 3600),
        Case(name: "iat 60 s in the future (the skew exactly)", accepted: true, issuedAt: now + 60, expiresAt: now + 3600),
        Case(name: "iat 61 s in the future", accepted: false, reasonMentions: "iat", issuedAt: now + 61, expiresAt: now + 3600),
        // Lifetime: Apple measures exp against its own clock ("not greater than 15777000 from the
        // current UNIX time on the server").
        Case(name: "exp exactly 15,777,000 s from now", accepted: true, expiresAt: now + 15_777_000),
        Case(name: "exp 15,777,001 s from now", accepted: false, reasonMentions: "exp", expiresAt: now + 15_777_001),
        Case(
            name: "iat 50 s ahead, exp 15,777,000 s after iat: more than the maximum from now", accepted: false, reasonMentions: "exp",
            issuedAt: now + 50, expiresAt: now + 50 + 15_777_000),
        Case(name: "exp in the past", accepted: false, reasonMentions: "expired", issuedAt: now - 7200, expiresAt: now - 1),
        // Out-of-range times are refused before any arithmetic on them.
        Case(name: "iat before 1970", accepted: false, reasonMentions: "iat", issuedAt: -1),
        Case(name: "exp after year 9999", accepted: false, reasonMentions: "exp", expiresAt: 253_402_300_800),
        // Identifier shapes: a Key ID is 10 characters (Apple's shape), even when registered otherwise.
        Case(name: "kid of 11 characters", accepted: false, reasonMentions: "kid", kid: oddKeyID),
    ]

    static func secret(_ testCase: Case) throws -> String {
        let header: [String: Any] = ["alg": "ES256", "kid": testCase.kid]
        let claims: [String: Any] = [
            "iss": teamID, "sub": clientID, "aud": testCase.audience.object, "iat": testCase.issuedAt, "exp": testCase.expiresAt,
        ]
        func segment(_ object: [String: Any]) throws -> String {
            Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])))
        }
        let signingInput = try segment(header) + "." + segment(claims)
        let signature = try key.signature(for: Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(Array(signature.rawRepresentation))
    }

    static func authenticator() async throws -> ClientAuthenticator {
        let store = MemoryStore()
        let team = TeamID(rawValue: teamID)
        let group = ClientID(rawValue: groupID)
        try await store.save(DeveloperTeam(id: team, name: "Agreement"))
        try await store.save(AppGroup(primaryAppID: group, teamID: team, displayName: "Agreement"))
        try await store.save(
            RegisteredClient(
                id: ClientID(rawValue: clientID), kind: .service, teamID: team, groupID: group, returnURLs: ["https://app.example.com/callback"]))
        for id in [keyID, oddKeyID] {
            try await store.save(
                DeveloperKey(id: KeyID(rawValue: id), teamID: team, primaryAppID: group, publicKeyPEM: key.publicKey.pemRepresentation))
        }
        return ClientAuthenticator(
            registry: store, clients: RegistryCache(registry: store, lifetime: 60), configuration: ProviderConfiguration(issuer: issuer),
            cache: VerifiedSecretCache())
    }

    static func inspector() throws -> ClientSecretInspector {
        try ClientSecretInspector(
            key: .publicKey(key.publicKey), clientID: clientID, teamID: teamID,
            audiences: ProviderConfiguration(issuer: issuer).acceptedClientSecretAudiences,
            clock: { Date(timeIntervalSince1970: TimeInterval(now)) })
    }

    @Test("each settled rule: the engine and the inspector give the same verdict, for the same reason", arguments: cases)
    func agreement(_ testCase: Case) async throws {
        let secret = try Self.secret(testCase)
        let report = try Self.inspector().inspect(secret)
        var engineRefusal: OAuthError?
        do {
            _ = try await Self.authenticator().authenticate(
                clientID: Self.clientID, secret: secret, now: Date(timeIntervalSince1970: TimeInterval(Self.now)))
        } catch let error as OAuthError {
            engineRefusal = error
        }
        #expect(report.passed == testCase.accepted, "inspector: \(report.failures)")
        #expect((engineRefusal == nil) == testCase.accepted, "engine: \(engineRefusal?.reason ?? "accepted")")
        guard !testCase.accepted else { return }
        // On the wire it stays Apple's bare invalid_client; only the logged reason is precise.
        #expect(engineRefusal?.code == .invalidClient)
        let first = try #require(report.failures.first)
        #expect(engineRefusal?.reason.contains(first.explanation) == true, "engine: \(engineRefusal?.reason ?? ""); inspector: \(first)")
        if let mentions = testCase.reasonMentions { #expect(first.explanation.contains(mentions), "\(first)") }
    }
}
