import AppleIDButtons
import AppleIDProtocol
import AppleIDProvider
import AppleIDStore
import Crypto
import Foundation
import Hummingbird
import Logging
import Prometheus
import ServiceLifecycle

/// How the HTTP side of the Apple ID server runs.
public struct ServerOptions: Sendable {
    public var host: String
    public var port: Int
    /// The URL browsers and relying parties use to reach this server (no trailing slash).
    public var baseURL: String
    /// Shows the current two-factor code and precise error reasons on the pages.
    public var developmentMode: Bool
    /// Headless mode: approve every authorization as this Apple ID.
    public var autoApproveAppleID: String?
    /// Bearer token of the admin API.
    public var adminToken: String
    /// Where `/metrics` reads from; the provider's metrics factory should write to the same registry.
    public var metricsRegistry = PrometheusCollectorRegistry()
    /// The demo facts and the demo key's PEM; enables the playground (`nil`: no playground).
    public var playground: (facts: DemoFacts, privateKeyPEM: String)?
    /// The secret of the pages' form tokens (HMAC keys). `siwa serve` derives it from the storage key,
    /// so it survives restarts and every instance on one database shares it; by default a random key
    /// of this process (one instance, as in tests and the emulator).
    public var formTokenKey = SymmetricKey(size: .bits256)
    /// Where the button images' fonts are looked up (tests: a machine without a font package).
    public var buttonFontFiles = ButtonFontFiles.installed

    public init(
        host: String = "127.0.0.1", port: Int = 8080, baseURL: String? = nil, developmentMode: Bool = true,
        autoApproveAppleID: String? = nil, adminToken: String, playground: (facts: DemoFacts, privateKeyPEM: String)? = nil
    ) {
        self.host = host
        self.port = port
        self.baseURL = baseURL ?? "http://\(host):\(port)"
        self.developmentMode = developmentMode
        self.autoApproveAppleID = autoApproveAppleID
        self.adminToken = adminToken
        self.playground = playground
    }

    /// Cookies are `Secure` when browsers reach the server over HTTPS: its URL is https, or its
    /// issuer is an https URL of its own (TLS ended by a proxy in front). Apple's issuer
    /// (`--issuer apple`) says nothing about how this server is reached, so it does not count.
    public func usesSecureCookies(issuer: String) -> Bool {
        baseURL.hasPrefix("https://") || (issuer.hasPrefix("https://") && !WireMatch.exact(issuer, ProviderConfiguration.appleIssuer))
    }

    /// The form-token secret of every instance whose storage key is `sealer`'s (HKDF with its own label).
    public static func formTokenKey(storageKey sealer: SecretSealer) -> SymmetricKey {
        sealer.derivedKey(purpose: "siwa form tokens v1")
    }

    /// Whether `host` is a loopback address: only this machine can reach a server bound there.
    public static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// The playground's return URL on this server.
    public static func playgroundReturnURL(baseURL: String) -> String { baseURL + playgroundCallbackPath }

    /// Whether `url` is the playground's return URL of some start (any host and port).
    public static func isPlaygroundReturnURL(_ url: String) -> Bool {
        guard let components = URLComponents(string: url) else { return false }
        return components.scheme == "http" && components.path == playgroundCallbackPath && components.query == nil
    }

    static let playgroundCallbackPath = "/playground/callback"
}

/// The router with every endpoint; `buildApplication` and the in-process tests share it.
public func buildRouter(provider: AppleIDProvider, options: ServerOptions) async throws -> Router<AppleIDRequestContext> {
    try await buildRouter(provider: provider, options: options, buttons: nil)
}

/// `buttons`: the button images (cache and render queue) to serve, made here when `nil`.
func buildRouter(provider: AppleIDProvider, options: ServerOptions, buttons: ButtonImages?) async throws -> Router<AppleIDRequestContext> {
    let router = Router(context: AppleIDRequestContext.self)
    router.add(middleware: RequestObservationMiddleware(metrics: PrometheusMetricsFactory(registry: options.metricsRegistry)))
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: StoreUnavailableMiddleware())
    let renderer = try await PageRenderer.load()
    let pages = InteractionPages(provider: provider, renderer: renderer, developmentMode: options.developmentMode)
    let delivery = AuthorizationDelivery(pages: renderer, random: provider.random)
    let cookies = BrowserCookies(
        random: provider.random, secure: options.usesSecureCookies(issuer: provider.configuration.issuer),
        formTokens: FormTokens(key: options.formTokenKey))

    DiscoveryEndpoints(issuer: provider.configuration.issuer, baseURL: options.baseURL, keyRing: provider.keyRing)
        .register(on: router)
    AuthorizeEndpoint(
        provider: provider, pages: pages, delivery: delivery, cookies: cookies, autoApproveAppleID: options.autoApproveAppleID
    ).register(on: router)
    InteractionEndpoints(provider: provider, pages: pages, delivery: delivery, cookies: cookies).register(on: router)
    TokenEndpoints(provider: provider).register(on: router)
    AccountEndpoints(provider: provider, renderer: renderer, cookies: cookies, developmentMode: options.developmentMode).register(on: router)
    ConsoleRoutes(site: ConsoleSite(provider: provider, renderer: renderer, cookies: cookies, baseURL: options.baseURL)).register(on: router)
    AdminEndpoints(provider: provider, adminToken: options.adminToken, baseURL: options.baseURL).register(on: router)
    OperationsEndpoints(provider: provider, registry: options.metricsRegistry, adminToken: options.adminToken).register(on: router)
    try SignInScriptEndpoint(serverURL: options.baseURL).register(on: router)
    ButtonEndpoints(
        images: try buttons ?? .standard(logger: Logger(label: "AppleIDServer.buttons"), fontFiles: options.buttonFontFiles), pages: renderer,
        random: provider.random
    ).register(on: router)
    LandingEndpoint(renderer: renderer, issuer: provider.configuration.issuer, playgroundAvailable: options.playground != nil)
        .register(on: router)
    if let playground = options.playground {
        let minter = try ClientSecretMinter(
            teamID: playground.facts.teamID, keyID: playground.facts.keyID, privateKeyPEM: playground.privateKeyPEM)
        PlaygroundEndpoints(
            provider: provider, renderer: renderer, facts: playground.facts, minter: minter,
            redirectURI: ServerOptions.playgroundReturnURL(baseURL: options.baseURL), cookies: cookies
        ).register(on: router)
    }
    return router
}

/// The Hummingbird application of the Apple ID server, with its background services (notification
/// delivery, and pre-rendering the button gallery) run and shut down together with it.
///
/// - Parameter onServerRunning: called once the socket listens (the start-up banner belongs there).
public func buildApplication(
    provider: AppleIDProvider, options: ServerOptions, logger: Logger, services: [any Service] = [],
    onServerRunning: @escaping @Sendable () async -> Void = {}
) async throws -> some ApplicationProtocol {
    let buttons = try ButtonImages.standard(logger: Logger(label: "AppleIDServer.buttons"), fontFiles: options.buttonFontFiles)
    let router = try await buildRouter(provider: provider, options: options, buttons: buttons)
    return Application(
        router: router,
        configuration: .init(address: .hostname(options.host, port: options.port), serverName: "AppleIDServer"),
        services: services + [ButtonGalleryPrerenderer(images: buttons)],
        onServerRunning: { _ in await onServerRunning() },
        logger: logger)
}
