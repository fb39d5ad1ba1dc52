import AppleIDConsole
import AppleIDMemoryStore
import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import AppleIDServer
import AppleIDServerApp
import AppleIDStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Prometheus
import ServerTestSupport
import Testing

/// An Apple ID server in process: the engine of ``TestEngine`` (memory store, fixed clock, seeded
/// randomness, fixture keys, one team with an app group, one developer key and two Apple IDs) with
/// the server's router on top, as `siwa serve` composes it.
struct TestServer: EngineFixture {
    let provider: AppleIDProvider
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
        let registry = PrometheusCollectorRegistry()
        let engine = try await TestEngine.make(
            logger: logger, store: store, seeded: seeded, randomSeed: randomSeed, txtResolver: txtResolver, endpointResolver: endpointResolver,
            managedSignIn: managedSignIn, metrics: PrometheusMetricsFactory(registry: registry), configure: configure,
            configureRelay: configureRelay)
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
            provider: engine.provider, relay: engine.relay, options: options,
            additions: try ServeAdditions.all(metrics: registry, adminToken: adminToken))
        return TestServer(provider: engine.provider, relay: engine.relay, clock: engine.clock, app: Application(router: router))
    }

    /// The engine's facts for demo.json and the playground, with the server's playground callback for `baseURL`.
    static func playgroundFacts(baseURL: String) -> DemoFacts {
        playgroundFacts(baseURL: baseURL, returnURL: ServerOptions.playgroundReturnURL(baseURL: baseURL))
    }

    /// A valid client secret for `clientID`, minted at the test clock's now.
    func clientSecret(
        for clientID: ClientID = servicesID, audience: String = issuer, lifetime: Int = 300, issuedAt: Date? = nil
    ) async throws -> String {
        try await ClientSecretMinter(teamID: Self.teamID, keyID: Self.keyID, privateKeyPEM: Fixtures.developerKey)
            .mint(clientID: clientID, audience: audience, issuedAt: issuedAt ?? clock.now(), lifetime: lifetime)
    }

    /// A server whose user has authorized the app group (hiding the e-mail), with an endpoint
    /// registered: the server, maria's account and her relay address.
    static func authorized(configure: (inout ProviderConfiguration) -> Void = { _ in }) async throws -> (TestServer, AppleIDAccount, String) {
        let server = try await make(configure: configure)
        let (account, relay) = try await server.authorizeMaria()
        return (server, account, relay)
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
