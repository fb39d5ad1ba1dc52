import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import SQLKit
import SignInWithApple
import SignInWithAppleTesting

@testable import JuiceApp

/// Juice on an in-memory database, pointed at an in-process Apple ID server, driven through its router.
struct JuiceHarness {
    let apple: AppleIDEmulator
    let database: JuiceDatabase
    let browser: JuiceBrowser
    let clock: TestClock

    /// Another browser on the same Juice, with cookies of its own.
    func newBrowser() -> JuiceBrowser { JuiceBrowser(client: browser.client, apple: apple) }

    var accounts: AccountStore { AccountStore(database: database, clock: { Date() }) }
    var sessions: SessionStore { SessionStore(database: database, clock: { Date() }, lifetime: 3600) }

    /// Posts the outbox's notifications to Juice's notification route, as the server's delivery would.
    func deliverNotifications() async throws -> [AppleIDEmulator.DeliveredNotification] {
        let notifications = try await apple.deliveredNotifications()
        for notification in notifications {
            let response = try await browser.client.execute(
                uri: "/auth/apple/notifications", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(bytes: notification.body))
            guard response.status == .ok else { throw HarnessError.notificationRefused(notification.type, response.status.code) }
        }
        return notifications
    }

    func account(email: String) async throws -> Account? {
        try await database.sql.raw("SELECT * FROM accounts WHERE email = \(bind: email)")
            .first(decoding: Account.self, keyDecodingStrategy: .convertFromSnakeCase)
    }

    func accountCount() async throws -> Int {
        try await database.sql.raw("SELECT COUNT(*) AS n FROM accounts").first(decodingColumn: "n", as: Int.self) ?? 0
    }

    enum HarnessError: Error {
        case notificationRefused(String, Int)
    }
}

/// - Parameters:
///   - transport: how Juice reaches the Apple ID server (a test may make some calls fail).
///   - configure: changes to Juice's configuration (an https base URL, say).
func withJuice(
    transport: any HTTPTransport = AsyncHTTPClientTransport(), configure: @Sendable (inout JuiceConfiguration) -> Void = { _ in },
    _ body: @Sendable (JuiceHarness) async throws -> Void
) async throws {
    try await withAppleIDEmulator { apple in
        try await runJuice(apple: apple, transport: transport, configure: configure, body)
    }
}

/// Juice against `apple`, which the caller started; `logger` is Juice's (its mailer logs there).
func runJuice(
    apple: AppleIDEmulator, transport: any HTTPTransport = AsyncHTTPClientTransport(),
    configure: @Sendable (inout JuiceConfiguration) -> Void = { _ in }, logger: Logger = Logger(label: "juice"),
    _ body: @Sendable (JuiceHarness) async throws -> Void
) async throws {
    let database = try await JuiceDatabase.open(path: nil, logger: Logger(label: "juice-tests"))
    do {
        var configuration = JuiceConfiguration(
            signInWithApple: apple.clientConfiguration(), passwordHasher: PasswordHasher(cost: 4))
        configure(&configuration)
        let clock = TestClock()
        let app = try await buildJuiceApplication(
            configuration: configuration, database: database, transport: transport, retry: .none, clock: clock.now, logger: logger)
        try await app.test(.router) { client in
            let browser = JuiceBrowser(client: client, apple: apple)
            try await body(JuiceHarness(apple: apple, database: database, browser: browser, clock: clock))
        }
    } catch {
        try? await database.close()
        throw error
    }
    try await database.close()
}
