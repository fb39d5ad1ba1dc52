import Foundation
import Hummingbird
import Logging
import SignInWithApple
import SignInWithAppleSQL

/// Builds Juice: used by `juice` and by the tests (with an in-memory database and the emulator).
public func buildJuiceApplication(
    configuration: JuiceConfiguration, database: JuiceDatabase, transport: any HTTPTransport = AsyncHTTPClientTransport(),
    retry: AppleTokenClient.RetryPolicy = .init(), clock: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "juice"),
    onServerRunning: @escaping @Sendable () async -> Void = {}
) async throws -> some ApplicationProtocol {
    let mailer = configuration.orderMail.map { OrderConfirmationMailer(settings: $0, logger: logger) }
    let router = try await makeJuiceRouter(
        configuration: configuration, database: database, transport: transport, retry: retry, clock: clock, orderMailer: mailer)
    return Application(
        router: router, configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Juice"),
        services: mailer.map { [$0] } ?? [], onServerRunning: { _ in await onServerRunning() }, logger: logger)
}

/// Juice's routes (order confirmations are sent only by an application's mailer service).
public func buildJuiceRouter(
    configuration: JuiceConfiguration, database: JuiceDatabase, transport: any HTTPTransport = AsyncHTTPClientTransport(),
    retry: AppleTokenClient.RetryPolicy = .init(), clock: @escaping @Sendable () -> Date = { Date() }
) async throws -> Router<JuiceRequestContext> {
    try await makeJuiceRouter(configuration: configuration, database: database, transport: transport, retry: retry, clock: clock, orderMailer: nil)
}

func makeJuiceRouter(
    configuration: JuiceConfiguration, database: JuiceDatabase, transport: any HTTPTransport, retry: AppleTokenClient.RetryPolicy,
    clock: @escaping @Sendable () -> Date, orderMailer: OrderConfirmationMailer?
) async throws -> Router<JuiceRequestContext> {
    let sessions = SessionStore(database: database, clock: clock, lifetime: configuration.sessionLifetime)
    let cookies = JuiceCookies(secure: configuration.baseURL.hasPrefix("https://"), sessionLifetime: Int(configuration.sessionLifetime))
    // The kit's started and verified sign-ins and the notifications seen, in Juice's own database.
    let storage = SQLSignInWithAppleStorage(database: database.sql, table: "sign_in_with_apple_entries")
    try await storage.migrate()
    let pages = Pages(renderer: try await PageRenderer.load(), buttonStyle: configuration.buttonStyle)
    let services = JuiceServices(
        accounts: AccountStore(database: database, clock: clock), sessions: sessions,
        intents: SignInIntentStore(
            database: database, clock: clock,
            lifetime: configuration.signInWithApple.stateLifetime + configuration.signInWithApple.completionLifetime),
        links: LinkOfferStore(database: database, clock: clock, lifetime: 15 * 60), orders: OrderStore(database: database, clock: clock),
        passwords: configuration.passwordHasher, passwordAttempts: PasswordAttemptThrottle(database: database, clock: clock),
        siwa: try SignInWithAppleClient(
            configuration: configuration.signInWithApple, transport: transport, storage: storage, retry: retry, clock: clock),
        pages: pages, cookies: cookies, orderMailer: orderMailer)

    let router = Router(context: JuiceRequestContext.self)
    router.add(middleware: SessionMiddleware(sessions: sessions, cookies: cookies, formTokens: FormTokens(storageKey: database.tokens), pages: pages))
    BrowseRoutes(services: services).register(on: router)
    PasswordRoutes(services: services).register(on: router)
    AppleSignInRoutes(services: services).register(on: router)
    LinkRoutes(services: services).register(on: router)
    AccountRoutes(services: services).register(on: router)
    return router
}
