import AppleIDProtocol
import CoreMetrics
import Foundation
import Logging
import RS256Signing

/// The identity provider's engine: authorization checks, interaction, token issuance, revocation,
/// the signing-key ring. Knows nothing of HTTP; the server translates requests into these calls.
public final class AppleIDProvider: Sendable {
    public let configuration: ProviderConfiguration
    /// The engine's alone (ARCHITECTURE.md): `package`, so that this package's tests may arrange data
    /// with it, while the server, the emulator and the CLI ask the engine (StoreOwnershipTests).
    package let store: any ProviderStore
    public let clock: any ProviderClock
    public let random: any RandomSource
    public let keyRing: SigningKeyRing
    public let interactions: InteractionService
    /// Wakes credential-event long-polls when a user's action adds to the outbox.
    public let credentialSignal = CredentialEventSignal()
    public let logger: Logger
    /// Where the engine's counters go (`siwa serve`: the Prometheus registry behind `/metrics`).
    public let metrics: any MetricsFactory
    /// Looks up the SPF records of e-mail sources (`siwa serve`: DNS over UDP to the system's resolver).
    public let txtResolver: any TXTResolver
    /// Finds the addresses of notification endpoints, checked before each connection outside
    /// development mode (`siwa serve`: the system's resolver).
    public let endpointResolver: any EndpointAddressResolver
    let pipeline: AuthorizationPipeline
    let authenticator: ClientAuthenticator
    let issuer: AuthorizationIssuer
    let codeGrant: AuthorizationCodeGrant
    let refreshGrant: RefreshTokenGrant
    let revocation: Revocation
    let registryCache: RegistryCache
    let identities: TeamIdentities
    /// Hears each request to the three OAuth endpoints for the console's Requests page (`siwa serve`:
    /// the console's `StoredRequestLog`); nil: none is recorded.
    package let requestRecorder: (any RequestRecorder)?
    let passwordHashes = PasswordHashPrefetch()
    /// Development mode's fault switch (`siwa serve --development` and the emulator: `AppleIDDevelopmentFaults`).
    package let faultSwitch: (any TokenFaultSwitch)?
    /// Hears each refusal beside its log line (the emulator's typed refusal log).
    let refusalObserver: (any RefusalObserver)?

    /// Loads (or creates) the signing keys in `storage` and wires the engine. `signer` signs RS256
    /// (id_tokens, notifications): swift-crypto unless the caller hands another (`siwa serve` hands the
    /// fastest of its build, `RS256Signers.fastest`, which may be OpenSSL's libcrypto).
    public static func start(
        configuration: ProviderConfiguration, storage: ProviderStorage, clock: any ProviderClock,
        random: any RandomSource = SystemRandomSource(), keyFactory: any SigningKeyFactory = GeneratingSigningKeyFactory(),
        logger: Logger = Logger(label: "AppleIDProvider"), metrics: any MetricsFactory = MetricsSystem.factory,
        txtResolver: any TXTResolver = UnconfiguredTXTResolver(),
        endpointResolver: any EndpointAddressResolver = UnconfiguredEndpointAddressResolver(),
        managedSignIn: any ManagedSignInAuthenticator = StoredPasswordAuthenticator(),
        signer: any RS256Signer = SwiftCryptoRS256Signer(), refusalObserver: (any RefusalObserver)? = nil,
        requestRecorder: (any RequestRecorder)? = nil, faultSwitch: (any TokenFaultSwitch)? = nil
    ) async throws -> AppleIDProvider {
        let store = storage.store
        let keyRing = try await SigningKeyRing.load(
            store: store, keyFactory: keyFactory, random: random, now: clock.now(),
            retiredKeyRetention: configuration.keyRotation.retiredKeyRetention, signer: signer)
        return AppleIDProvider(
            configuration: configuration, store: store, clock: clock, random: random, keyRing: keyRing, logger: logger, metrics: metrics,
            txtResolver: txtResolver, endpointResolver: endpointResolver, managedSignIn: managedSignIn, refusalObserver: refusalObserver,
            requestRecorder: requestRecorder, faultSwitch: faultSwitch)
    }

    init(
        configuration: ProviderConfiguration, store: any ProviderStore, clock: any ProviderClock, random: any RandomSource,
        keyRing: SigningKeyRing, logger: Logger, metrics: any MetricsFactory = MetricsSystem.factory,
        txtResolver: any TXTResolver = UnconfiguredTXTResolver(),
        endpointResolver: any EndpointAddressResolver = UnconfiguredEndpointAddressResolver(),
        managedSignIn: any ManagedSignInAuthenticator = StoredPasswordAuthenticator(), refusalObserver: (any RefusalObserver)? = nil,
        requestRecorder: (any RequestRecorder)? = nil, faultSwitch: (any TokenFaultSwitch)? = nil
    ) {
        self.refusalObserver = refusalObserver
        self.requestRecorder = requestRecorder
        self.faultSwitch = faultSwitch
        self.metrics = metrics
        self.txtResolver = txtResolver
        self.endpointResolver = endpointResolver
        self.configuration = configuration
        self.store = store
        self.clock = clock
        self.random = random
        self.keyRing = keyRing
        self.logger = logger
        let idTokens = IdentityTokenFactory(signer: TokenSigner(keyRing: keyRing), configuration: configuration)
        let identities = TeamIdentities(store: store, random: random, relayDomain: configuration.relayDomain)
        self.identities = identities
        let tokens = TokenIssuance(store: store, random: random, configuration: configuration)
        self.pipeline = AuthorizationPipeline(registry: store)
        self.registryCache = RegistryCache(registry: store, lifetime: configuration.registryCacheLifetime)
        self.authenticator = ClientAuthenticator(
            registry: store, clients: registryCache, configuration: configuration, cache: VerifiedSecretCache())
        self.issuer = AuthorizationIssuer(
            store: store, identities: identities, idTokens: idTokens, random: random, configuration: configuration)
        self.interactions = InteractionService(
            store: store, issuer: issuer, configuration: configuration, random: random, clock: clock, managedSignIn: managedSignIn)
        self.codeGrant = AuthorizationCodeGrant(
            store: store, tokens: tokens, idTokens: idTokens, configuration: configuration, clock: clock)
        self.refreshGrant = RefreshTokenGrant(store: store, tokens: tokens, idTokens: idTokens, configuration: configuration)
        self.revocation = Revocation(store: store)
    }

    /// Runs the authorization checks (spec §3.1).
    public func validate(_ request: AuthorizationRequest) async throws -> AuthorizationValidation {
        let (validation, client) = try await pipeline.validate(request)
        switch validation {
        case .valid: await logRequest(.authorize, client: client, refusal: nil)
        case .rejected(let error), .redirectedError(let error, _):
            logger.info("authorize refused", metadata: ["client_id": "\(request.clientID ?? "-")", "reason": "\(error.reason)"])
            refusalObserver?.refused(EngineRefusal(endpoint: "authorize", clientID: request.clientID, error: error))
            await logRequest(.authorize, client: client, refusal: error)
        }
        return validation
    }

    /// `POST /auth/token`. Failures are OAuth errors whose reason has been logged.
    public func token(_ request: TokenRequest) async -> Result<TokenResponse, OAuthError> {
        await answer(endpoint: "token", clientID: request.clientID) {
            let now = self.clock.now()
            let grantType = GrantType(rawValue: try Self.required(request.grantType, "grant_type"))
            if grantType == .clientCredentials { return try await self.transfers.migrationToken(request, now: now) }
            let client = try await self.authenticator.authenticate(clientID: request.clientID, secret: request.clientSecret, now: now)
            switch grantType {
            case .authorizationCode:
                let defect = self.configuration.developmentMode ? try await self.faultSwitch?.take(for: client.id) : nil
                return try await self.codeGrant.exchange(request, client: client, now: now, defect: defect)
            case .refreshToken: return try await self.refreshGrant.refresh(request, client: client, now: now)
            default: throw OAuthError.unsupportedGrantType("grant_type \(grantType.rawValue) is not supported for this client")
            }
        }
    }

    /// `POST /auth/revoke`.
    public func revoke(_ request: RevocationRequest) async -> Result<Void, OAuthError> {
        await answer(endpoint: "revoke", clientID: request.clientID) {
            let now = self.clock.now()
            let client = try await self.authenticator.authenticate(clientID: request.clientID, secret: request.clientSecret, now: now)
            try await self.revocation.revoke(request, client: client, now: now)
        }
    }

    /// Completes an authorization without a browser, as `appleID` with `choices` (defaults: the
    /// account's name, the real e-mail shared). Headless mode for CI and the admin surface.
    public func authorizeHeadless(
        _ request: AuthorizationRequest, appleID: String, choices: ConsentChoices? = nil
    ) async throws -> HeadlessAuthorization {
        try await authorizeHeadless(request, appleID: appleID) { choices ?? .headlessDefault(for: $0) }
    }

    /// ``authorizeHeadless(_:appleID:choices:)`` with the default choices but for `overrides`.
    public func authorizeHeadless(
        _ request: AuthorizationRequest, appleID: String, overrides: ConsentOverrides
    ) async throws -> HeadlessAuthorization {
        try await authorizeHeadless(request, appleID: appleID) { .headlessDefault(for: $0, overriding: overrides) }
    }

    private func authorizeHeadless(
        _ request: AuthorizationRequest, appleID: String, choices: (AppleIDAccount) -> ConsentChoices
    ) async throws -> HeadlessAuthorization {
        switch try await validate(request) {
        case .rejected(let error): return .rejected(error)
        case .redirectedError(_, let response): return .answered(response)
        case .valid(let validated):
            guard let account = try await store.activeAccount(appleID: appleID) else { return .unknownAppleID(appleID) }
            let now = clock.now()
            return .answered(try await issuer.approve(validated, account: account, authTime: now, choices: choices(account), now: now))
        }
    }

    /// Drops cached registry entries; call after changing clients through ``store``.
    public func registryDidChange() { registryCache.invalidate() }

    /// Rotates the signing keys now: next becomes active, a new next key is published. Returns
    /// `false` when another instance rotated the same keys at the same moment (the ring shows its
    /// rotation then).
    @discardableResult
    public func rotateSigningKeys() async throws -> Bool {
        let rotated = try await keyRing.rotate(now: clock.now())
        logRotation(rotated, scheduled: false)
        return rotated
    }

    /// Rotates the signing keys if ``ProviderConfiguration/keyRotation`` says they are due, then
    /// reads the ring again from the store, so that a rotation by another instance is published here
    /// too. Every instance calls it on a short interval.
    public func rotateSigningKeysIfDue() async throws {
        if try await keyRing.rotateIfDue(now: clock.now(), schedule: configuration.keyRotation) {
            logRotation(true, scheduled: true)
        } else {
            try await keyRing.reload(now: clock.now())
        }
    }

    private func logRotation(_ rotated: Bool, scheduled: Bool) {
        let metadata: Logger.Metadata = ["active_kid": "\(keyRing.activeKeyID)", "scheduled": "\(scheduled)"]
        if rotated {
            logger.notice("signing keys rotated", metadata: metadata)
        } else {
            logger.notice("signing keys were rotated by another instance at the same moment", metadata: metadata)
        }
    }

    /// - Parameter unverified: the request was refused before its client could prove itself, whatever
    ///   the refusal's code says (see ``isProven(_:refusal:)``).
    func answer<T>(
        endpoint: String, clientID: String?, unverified: Bool = false, _ work: () async throws -> T
    ) async -> Result<T, OAuthError> {
        let result = await answerUncounted(endpoint: endpoint, clientID: clientID, work)
        let outcome: String
        switch result {
        case .success: outcome = "ok"
        case .failure(let error): outcome = error.code.rawValue
        }
        // An answer the database could not give is not logged for the console: logging reads the
        // client from the registry, which would wait on the unavailable database a second time.
        if let logged = RequestLogEntry.Endpoint(rawValue: endpoint), result.failure?.statusCode != 503 {
            await logRequest(logged, clientID: clientID, refusal: result.failure, unverified: unverified)
        }
        // Bounded labels: the endpoint and the OAuth error code (the precise reason stays in the log).
        Counter(label: "siwa_oauth_answers_total", dimensions: [("endpoint", endpoint), ("outcome", outcome)], factory: metrics).increment()
        return result
    }

    private func answerUncounted<T>(endpoint: String, clientID: String?, _ work: () async throws -> T) async -> Result<T, OAuthError> {
        do {
            return .success(try await work())
        } catch let error as OAuthError {
            logger.info(
                "\(endpoint) refused",
                metadata: ["client_id": "\(clientID ?? "-")", "error": "\(error.code.rawValue)", "reason": "\(error.reason)"])
            refusalObserver?.refused(EngineRefusal(endpoint: endpoint, clientID: clientID, error: error))
            return .failure(error)
        } catch let error as StoreUnavailableError {
            logger.warning("\(endpoint) unavailable", metadata: ["client_id": "\(clientID ?? "-")", "reason": "\(error.reason)"])
            return .failure(OAuthError(.temporarilyUnavailable, status: 503, reason: error.description))
        } catch {
            logger.error("\(endpoint) failed", metadata: ["client_id": "\(clientID ?? "-")", "error": "\(String(reflecting: type(of: error)))"])
            return .failure(OAuthError(.serverError, status: 500, reason: "internal error"))
        }
    }

    private static func required(_ value: String?, _ name: String) throws -> String {
        guard let value, !value.isEmpty else { throw OAuthError.invalidRequest("\(name) is missing") }
        return value
    }
}

/// The result of a headless authorization.
public enum HeadlessAuthorization: Sendable {
    case answered(AuthorizationResponse)
    case rejected(OAuthError)
    case unknownAppleID(String)
}

extension AppleIDProvider {
    /// Answers a request refused before the engine could read it (a body that is not a form, a
    /// repeated parameter) as every other refusal is answered: logged with its precise reason, put on
    /// the Requests page of the registered client it names, and counted. Nothing was verified, so the
    /// entry is unproven (rate-limited: anyone can name a client ID). Returns `error`, to be thrown.
    public func refuseUnreadable(_ error: OAuthError, endpoint: String, clientID: String?) async -> OAuthError {
        let result: Result<Void, OAuthError> = await answer(endpoint: endpoint, clientID: clientID, unverified: true) { throw error }
        return result.failure ?? error
    }
}
