import AppleIDConsole
import AppleIDDevelopmentFaults
import AppleIDMemoryStore
import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation
import Logging

/// An engine over the memory store with a fixed clock and generated-once keys, plus two teams
/// each with one web client.
struct ProviderHarness {
    static let now = Date(timeIntervalSince1970: 1_795_240_800)
    /// RSA-2048 keys made once with openssl and kept in `Tests/Fixtures/rsa` (made at run time, each took a thread every test shares): one set serves every test.
    static let keys: [String] = (1...6).map { fixtureKey($0) }

    /// `Tests/Fixtures/rsa/test-key-<number>.pem` (this file is `Tests/AppleIDProviderTests/ProviderHarness.swift`).
    static func fixtureKey(_ number: Int) -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/rsa/test-key-\(number).pem")
        // Fixtures are part of the repository; a missing one is a broken checkout, not a test result.
        guard let pem = try? String(contentsOf: url, encoding: .utf8) else { preconditionFailure("missing fixture \(url.path)") }
        return pem
    }

    let provider: AppleIDProvider
    let clock: ManualClock
    let store: MemoryStore
    /// The private relay over the same store, as `siwa serve` keeps its mail in the engine's database:
    /// one, so that its Message-ID key and its wake-up signal are the same for every use.
    let relay: MailRelay

    static func make(
        txtResolver: any TXTResolver = UnconfiguredTXTResolver(),
        endpointResolver: any EndpointAddressResolver = UnconfiguredEndpointAddressResolver(),
        managedSignIn: any ManagedSignInAuthenticator = StoredPasswordAuthenticator(), requestLog: RequestLogSettings = RequestLogSettings(),
        keyFactory: any SigningKeyFactory = FixedSigningKeyFactory(pems: keys), configure: (inout ProviderConfiguration) -> Void = { _ in }
    ) async throws -> ProviderHarness {
        let clock = ManualClock(now)
        let store = MemoryStore()
        var configuration = ProviderConfiguration(issuer: "https://id.example.com")
        configuration.passwordHashCost = 4
        configure(&configuration)
        let provider = try await AppleIDProvider.start(
            configuration: configuration, storage: .store(store), clock: clock, random: SeededRandomSource(seed: "provider"),
            keyFactory: keyFactory, logger: Logger(label: "test"), txtResolver: txtResolver,
            endpointResolver: endpointResolver, managedSignIn: managedSignIn,
            requestRecorder: StoredRequestLog(store: store, settings: requestLog), faultSwitch: TokenFaults())
        for (team, group) in [("TEAMAAAAAA", "com.a.app"), ("TEAMBBBBBB", "com.b.app")] {
            try await store.save(DeveloperTeam(id: TeamID(rawValue: team), name: team))
            try await store.save(AppGroup(primaryAppID: ClientID(rawValue: group), teamID: TeamID(rawValue: team), displayName: group))
            try await store.save(
                RegisteredClient(
                    id: ClientID(rawValue: group + ".web"), kind: .service, teamID: TeamID(rawValue: team),
                    groupID: ClientID(rawValue: group), returnURLs: ["https://\(group)/callback"]))
        }
        _ = try await provider.createAccount(appleID: "Maria@Example.com", password: "pw", firstName: "Maria", lastName: "Ruiz")
        return ProviderHarness(provider: provider, clock: clock, store: store, relay: MailRelay(provider: provider, store: store))
    }

    /// A headless first or later authorization for `group`'s web client with name and e-mail.
    func authorize(group: String, hideEmail: Bool) async throws -> AuthorizationResponse {
        let request = AuthorizationRequest(
            clientID: group + ".web", redirectURI: "https://\(group)/callback", responseType: "code id_token",
            responseMode: "form_post", scope: "name email", state: "s", nonce: "n")
        let choices = ConsentChoices(firstName: "Maria", lastName: "Ruiz", hideEmail: hideEmail)
        guard case .answered(let answer) = try await provider.authorizeHeadless(request, appleID: "maria@example.com", choices: choices)
        else { throw HarnessError.notAnswered }
        return answer
    }

    func claims(_ answer: AuthorizationResponse) throws -> IdentityTokenClaims {
        try claims(idToken: try answer.issued?.idToken ?? { throw HarnessError.notAnswered }())
    }

    func claims(idToken token: String) throws -> IdentityTokenClaims {
        try JSONDecoder().decode(IdentityTokenClaims.self, from: Data(try Base64URL.decode(String(token.split(separator: ".")[1]))))
    }

    enum HarnessError: Error { case notAnswered }
}
