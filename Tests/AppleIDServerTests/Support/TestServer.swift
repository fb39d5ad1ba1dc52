import AppleIDConsole
import AppleIDDevelopmentFaults
import AppleIDMemoryStore
import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import AppleIDServer
import AppleIDServerApp
import AppleIDStore
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Prometheus
import Testing

/// An Apple ID server in process: memory store, fixed clock, seeded randomness, fixture keys,
/// one team with an app group (App ID + Services ID), one developer key and two Apple IDs.
struct TestServer {
    static let issuer = "http://127.0.0.1:8080"
    static let teamID: TeamID = "TEAM123456"
    static let otherTeamID: TeamID = "OTHER12345"
    static let bundleID: ClientID = "com.example.juice"
    static let servicesID: ClientID = "com.example.juice.web"
    static let otherServicesID: ClientID = "com.example.juice.other"
    static let keyID: KeyID = "TESTKEY123"
    static let otherKeyID: KeyID = "OTHERKEY12"
    static let redirectURI = "https://juice.example.com/auth/callback"
    static let secondRedirectURI = "https://juice.example.com/auth/callback/"
    static let adminToken = "test-admin-token"
    static let maria = (appleID: "maria@example.com", password: "correct horse", email: "maria.ruiz@example.com")

    let provider: AppleIDProvider
    /// The private relay over the same store, as `siwa serve` composes it.
    let relay: MailRelay
    let clock: ManualClock
    let app: Application<RouterResponder<AppleIDRequestContext>>

    /// `seeded`: the store already holds the fixtures (a second instance on another's store).
    static func make(
        autoApprove: String? = nil, playground: Bool = false, logger: Logger = Logger(label: "test"),
        store: any ProviderStore & RelayMailStore & RequestLogStore = MemoryStore(), seeded: Bool = false, randomSeed: String = "tests",
        txtResolver: any TXTResolver = UnconfiguredTXTResolver(),
        endpointResolver: any EndpointAddressResolver = UnconfiguredEndpointAddressResolver(),
        managedSignIn: any ManagedSignInAuthenticator = HTTPFederatedSignIn(),
        configure: (inout ProviderConfiguration) -> Void = { _ in }, configureRelay: (inout RelaySettings) -> Void = { _ in }
    ) async throws -> TestServer {
        let clock = ManualClock(Fixtures.now)
        var configuration = ProviderConfiguration(issuer: issuer)
        configuration.passwordHashCost = 4
        configuration.developmentMode = true
        configure(&configuration)
        let registry = PrometheusCollectorRegistry()
        let provider = try await AppleIDProvider.start(
            configuration: configuration, storage: .store(store), clock: clock, random: SeededRandomSource(seed: randomSeed),
            keyFactory: FixedSigningKeyFactory(pems: Fixtures.signingKeys), logger: logger, metrics: PrometheusMetricsFactory(registry: registry),
            txtResolver: txtResolver, endpointResolver: endpointResolver, managedSignIn: managedSignIn,
            requestRecorder: StoredRequestLog(store: store, logger: logger), faultSwitch: TokenFaults(logger: logger))
        if !seeded { try await seed(provider) }
        var relaySettings = RelaySettings()
        configureRelay(&relaySettings)
        let relay = MailRelay(provider: provider, store: store, settings: relaySettings)
        var options = ServerOptions(autoApproveAppleID: autoApprove, adminToken: adminToken)
        // One storage key for every test server, as instances on one database share theirs: a form
        // rendered by one is accepted by another.
        options.formTokenKey = ServerOptions.formTokenKey(storageKey: try SecretSealer(keyBytes: Array(repeating: 7, count: 32)))
        if playground {
            var client = try #require(try await store.client(servicesID))
            let returnURL = ServerOptions.playgroundReturnURL(baseURL: options.baseURL)
            if !client.returnURLs.contains(returnURL) { client.returnURLs.append(returnURL) }
            try await store.save(client)
            options.playground = (playgroundFacts(baseURL: options.baseURL), Fixtures.developerKey)
        }
        // As `siwa serve` composes it: with the button images and `/metrics`.
        let router = try await buildRouter(
            provider: provider, relay: relay, options: options, additions: try ServeAdditions.all(metrics: registry, adminToken: adminToken))
        return TestServer(provider: provider, relay: relay, clock: clock, app: Application(router: router))
    }

    static func seed(_ provider: AppleIDProvider) async throws {
        let store = provider.store
        try await store.save(DeveloperTeam(id: teamID, name: "Juice Team"))
        try await store.save(DeveloperTeam(id: otherTeamID, name: "Other Team"))
        try await store.save(AppGroup(primaryAppID: bundleID, teamID: teamID, displayName: "Juice"))
        try await store.save(RegisteredClient(id: bundleID, kind: .app, teamID: teamID, groupID: bundleID))
        try await store.save(
            RegisteredClient(id: servicesID, kind: .service, teamID: teamID, groupID: bundleID, returnURLs: [redirectURI, secondRedirectURI]))
        try await store.save(
            RegisteredClient(id: otherServicesID, kind: .service, teamID: teamID, groupID: bundleID, returnURLs: [redirectURI]))
        try await store.save(
            DeveloperKey(id: keyID, teamID: teamID, primaryAppID: bundleID, publicKeyPEM: try publicPEM(Fixtures.developerKey)))
        try await store.save(
            DeveloperKey(id: otherKeyID, teamID: otherTeamID, primaryAppID: "com.other.app", publicKeyPEM: try publicPEM(Fixtures.otherDeveloperKey)))
        _ = try await provider.createAccount(
            appleID: maria.appleID, password: maria.password, firstName: "Maria", lastName: "Ruiz", email: maria.email,
            realUserStatus: .likelyReal)
        _ = try await provider.createAccount(
            appleID: "robin@example.com", password: "robin's password", firstName: "Robin", lastName: "Unknown",
            realUserStatus: .unknown)
    }

    static func playgroundFacts(baseURL: String) -> DemoFacts {
        DemoFacts(
            server: baseURL, issuer: issuer, teamID: teamID, keyID: keyID, keyFile: "AuthKey_TESTKEY123.p8", bundleID: bundleID,
            servicesID: servicesID, returnURLs: [ServerOptions.playgroundReturnURL(baseURL: baseURL)],
            users: [], adminToken: adminToken)
    }

    static func publicPEM(_ privatePEM: String) throws -> String {
        try P256.Signing.PrivateKey(pemRepresentation: privatePEM).publicKey.pemRepresentation
    }

    /// A valid client secret for `clientID`, minted at the test clock's now.
    func clientSecret(
        for clientID: ClientID = servicesID, audience: String = issuer, lifetime: Int = 300, issuedAt: Date? = nil
    ) async throws -> String {
        try await ClientSecretMinter(teamID: Self.teamID, keyID: Self.keyID, privateKeyPEM: Fixtures.developerKey)
            .mint(clientID: clientID, audience: audience, issuedAt: issuedAt ?? clock.now(), lifetime: lifetime)
    }
}

/// Form and query encoding for test requests.
enum Form {
    static func encode(_ fields: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return fields.map { name, value in
            "\(name.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
    }

    static let headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
}
