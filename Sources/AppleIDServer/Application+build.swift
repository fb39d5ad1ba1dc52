import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Crypto
import Foundation
import Hummingbird
import Logging
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
    /// The demo facts and the demo key's PEM; enables the playground (`nil`: no playground).
    public var playground: (facts: DemoFacts, privateKeyPEM: String)?
    /// The secret of the pages' form tokens (HMAC keys). `siwa serve` derives it from the storage key,
    /// so it survives restarts and every instance on one database shares it; by default a random key
    /// of this process (one instance, as in tests and the emulator).
    public var formTokenKey = SymmetricKey(size: .bits256)

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

/// Routes and background work that a composition root adds to the protocol server: `siwa serve`
/// adds the button images and `/metrics`; the emulator adds nothing, so it links neither FreeType
/// nor Prometheus.
package protocol ServerAddition: Sendable {
    /// Adds the routes; `pages` renders this server's templates.
    func register(on router: Router<AppleIDRequestContext>, provider: AppleIDProvider, pages: PageRenderer) throws
    /// Run and shut down together with the application.
    var services: [any Service] { get }
}

/// The router with every protocol endpoint, pages, console and admin API; the emulator and the
/// in-process tests use it as it is.
/// `relay` is the private relay the account, console and admin mail pages read.
public func buildRouter(provider: AppleIDProvider, relay: MailRelay, options: ServerOptions) async throws -> Router<AppleIDRequestContext> {
    try await buildRouter(provider: provider, relay: relay, options: options, additions: [])
}

/// ``buildRouter(provider:relay:options:)`` with what the composition root adds.
package func buildRouter(
    provider: AppleIDProvider, relay: MailRelay, options: ServerOptions, additions: [any ServerAddition]
) async throws -> Router<AppleIDRequestContext> {
    let router = Router(context: AppleIDRequestContext.self)
    // The provider's factory: `siwa serve` points it at the registry behind `/metrics`.
    router.add(middleware: RequestObservationMiddleware(metrics: provider.metrics))
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: StoreUnavailableMiddleware())
    let renderer = try await PageRenderer.load()
    let pages = InteractionPages(provider: provider, renderer: renderer, developmentMode: options.developmentMode)
    let delivery = AuthorizationDelivery(pages: renderer, random: provider.random)
    let cookies = BrowserCookies(
        random: provider.random, secure: options.usesSecureCookies(issuer: provider.configuration.issuer),
        formTokens: FormTokens(key: options.formTokenKey))

    DiscoveryEndpoints(provider: provider, baseURL: options.baseURL)
        .register(on: router)
    AuthorizeEndpoint(
        provider: provider, pages: pages, delivery: delivery, cookies: cookies, autoApproveAppleID: options.autoApproveAppleID
    ).register(on: router)
    InteractionEndpoints(provider: provider, pages: pages, delivery: delivery, cookies: cookies).register(on: router)
    TokenEndpoints(provider: provider).register(on: router)
    AccountEndpoints(provider: provider, relay: relay, renderer: renderer, cookies: cookies, developmentMode: options.developmentMode).register(
        on: router)
    ConsoleRoutes(site: ConsoleSite(provider: provider, relay: relay, renderer: renderer, cookies: cookies, baseURL: options.baseURL))
        .register(on: router)
    AdminEndpoints(provider: provider, relay: relay, adminToken: options.adminToken, baseURL: options.baseURL).register(on: router)
    OperationsEndpoints(provider: provider).register(on: router)
    try SignInScriptEndpoint(serverURL: options.baseURL).register(on: router)
    for addition in additions { try addition.register(on: router, provider: provider, pages: renderer) }
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
/// delivery, and the additions' own) run and shut down together with it.
///
/// - Parameter onServerRunning: called once the socket listens (the start-up banner belongs there).
package func buildApplication(
    provider: AppleIDProvider, relay: MailRelay, options: ServerOptions, logger: Logger, services: [any Service] = [],
    additions: [any ServerAddition] = [], onServerRunning: @escaping @Sendable () async -> Void = {}
) async throws -> some ApplicationProtocol {
    let router = try await buildRouter(provider: provider, relay: relay, options: options, additions: additions)
    return Application(
        router: router,
        configuration: .init(address: .hostname(options.host, port: options.port), serverName: "AppleIDServer"),
        services: services + additions.flatMap(\.services),
        onServerRunning: { _ in await onServerRunning() },
        logger: logger)
}
