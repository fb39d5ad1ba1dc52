import AppleIDConsole
import AppleIDDevelopmentFaults
import AppleIDMemoryStore
import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import CoreMetrics
import Crypto
import Logging

/// What every test server has, with or without its router: the engine, the private relay over the
/// same store and the fixed clock, and the names of the team, the apps, the key and the Apple IDs
/// that ``TestEngine/seed(_:)`` puts in its store.
package protocol EngineFixture {
    var provider: AppleIDProvider { get }
    /// The private relay over the same store, as `siwa serve` composes it.
    var relay: MailRelay { get }
    var clock: ManualClock { get }
}

extension EngineFixture {
    package static var issuer: String { "http://127.0.0.1:8080" }
    package static var teamID: TeamID { "TEAM123456" }
    package static var otherTeamID: TeamID { "OTHER12345" }
    package static var bundleID: ClientID { "com.example.juice" }
    package static var servicesID: ClientID { "com.example.juice.web" }
    package static var otherServicesID: ClientID { "com.example.juice.other" }
    package static var keyID: KeyID { "TESTKEY123" }
    package static var otherKeyID: KeyID { "OTHERKEY12" }
    package static var redirectURI: String { "https://juice.example.com/auth/callback" }
    package static var secondRedirectURI: String { "https://juice.example.com/auth/callback/" }
    package static var adminToken: String { "test-admin-token" }
    package static var maria: (appleID: String, password: String, email: String) {
        (appleID: "maria@example.com", password: "correct horse", email: "maria.ruiz@example.com")
    }
    /// The relay address the relay's tests give maria.
    package static var relayAddress: String { "abc1234567@privaterelay.appleid.com" }

    /// The engine's facts for demo.json and the playground: the seeded team, key and apps, with
    /// `returnURL` (the server's playground callback for `baseURL`) as the only Return URL.
    package static func playgroundFacts(baseURL: String, returnURL: String) -> DemoFacts {
        DemoFacts(
            server: baseURL, issuer: issuer, teamID: teamID, keyID: keyID, keyFile: "AuthKey_TESTKEY123.p8", bundleID: bundleID,
            servicesID: servicesID, returnURLs: [returnURL], users: [], adminToken: adminToken)
    }

    package static func publicPEM(_ privatePEM: String) throws -> String {
        try P256.Signing.PrivateKey(pemRepresentation: privatePEM).publicKey.pemRepresentation
    }
}

/// An engine in process, without the server's router: memory store, fixed clock, seeded randomness,
/// fixture keys, one team with an app group (App ID + Services ID), one developer key and two Apple
/// IDs. The server's `TestServer` is this engine with its router on top.
package struct TestEngine: EngineFixture {
    package let provider: AppleIDProvider
    package let relay: MailRelay
    package let clock: ManualClock

    /// `seeded`: the store already holds the fixtures (a second instance on another's store).
    package static func make(
        logger: Logger = Logger(label: "test"), store: any ProviderStore & RelayMailStore & RequestLogStore = MemoryStore(), seeded: Bool = false,
        randomSeed: String = "tests", txtResolver: any TXTResolver = UnconfiguredTXTResolver(),
        endpointResolver: any EndpointAddressResolver = UnconfiguredEndpointAddressResolver(),
        managedSignIn: any ManagedSignInAuthenticator = StoredPasswordAuthenticator(), metrics: any MetricsFactory = NOOPMetricsHandler.instance,
        configure: (inout ProviderConfiguration) -> Void = { _ in }, configureRelay: (inout RelaySettings) -> Void = { _ in }
    ) async throws -> TestEngine {
        let clock = ManualClock(Fixtures.now)
        var configuration = ProviderConfiguration(issuer: issuer)
        configuration.passwordHashCost = 4
        configuration.developmentMode = true
        configure(&configuration)
        let provider = try await AppleIDProvider.start(
            configuration: configuration, storage: .store(store), clock: clock, random: SeededRandomSource(seed: randomSeed),
            keyFactory: FixedSigningKeyFactory(pems: Fixtures.signingKeys), logger: logger, metrics: metrics,
            txtResolver: txtResolver, endpointResolver: endpointResolver, managedSignIn: managedSignIn,
            requestRecorder: StoredRequestLog(store: store, logger: logger), faultSwitch: TokenFaults(logger: logger))
        if !seeded { try await seed(provider) }
        var relaySettings = RelaySettings()
        configureRelay(&relaySettings)
        return TestEngine(provider: provider, relay: MailRelay(provider: provider, store: store, settings: relaySettings), clock: clock)
    }

    package static func seed(_ provider: AppleIDProvider) async throws {
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
}
