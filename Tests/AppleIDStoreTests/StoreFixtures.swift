import AppleIDConsole
import AppleIDEmailSources
import AppleIDMemoryStore
import AppleIDOrganizations
import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation
import Logging
import SQLKit
import Testing

@testable import AppleIDStore

/// The engine's store, the relay's and the console's, as every implementation keeps them in one database.
typealias ConformingStore = ProviderStore & RelayMailStore & EmailSourceStore & ConsoleStore & OrganizationAdminStore

/// Every ``ProviderStore`` implementation the conformance suite runs against.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory
    case sqliteInMemory
    case sqliteFile
    /// A fresh schema of the database at `SIWA_TEST_POSTGRES_URL` (`.ci/run` starts PostgreSQL and
    /// sets it; without it this kind is not in ``available``).
    case postgres

    var testDescription: String { rawValue }

    static let postgresURL = ProcessInfo.processInfo.environment["SIWA_TEST_POSTGRES_URL"]

    /// The kinds this machine can run: PostgreSQL only when a test database is configured.
    static var available: [StoreKind] { allCases.filter { $0 != .postgres || postgresURL != nil } }

    /// Opens a fresh, empty store of this kind, runs `body`, then closes the store and removes
    /// any files it created, whether `body` threw or not.
    func withStore<R>(_ body: (any ConformingStore) async throws -> R) async throws -> R {
        switch self {
        case .memory:
            return try await body(MemoryStore())
        case .sqliteInMemory:
            let (store, shutdown) = try await SQLStore.sqliteInMemory(logger: testLogger)
            return try await run(body, on: store, shutdown: shutdown)
        case .sqliteFile:
            return try await TemporaryDirectory.with { directory in
                // A nested path: the factory creates missing parent directories.
                let path = directory.appendingPathComponent("nested/db/store.sqlite").path
                let (store, shutdown) = try await SQLStore.sqlite(path: path, logger: testLogger)
                return try await run(body, on: store, shutdown: shutdown)
            }
        case .postgres:
            let url = try #require(Self.postgresURL, "SIWA_TEST_POSTGRES_URL is not set")
            return try await PostgresTestStoreLimit.shared.withPlace {
                let schema = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
                let (store, shutdown) = try await SQLStore.postgres(url: url, schema: schema, pool: Self.testPool, logger: testLogger)
                return try await run(body, on: store) {
                    try await store.db.raw("DROP SCHEMA \(ident: schema) CASCADE").run()
                    try await shutdown()
                }
            }
        }
    }

    /// The pool of a test store waits long for a connection: the whole test run shares two cores and a
    /// swift concurrency pool that other suites' blocking calls can hold for a minute or more, so a
    /// production-sized wait would fail tests that are not about waiting (PostgresPoolTests are).
    ///
    /// At most 4 connections each: the suite runs dozens of PostgreSQL stores at once, and with the
    /// production pool of 16 the concurrency tests alone opened more than PostgreSQL's default 100
    /// (`53300`, "remaining connection slots are reserved", seen in a clean-clone CI run). Four still
    /// race every concurrency test's transactions against each other.
    static let testPool = PostgresPoolSettings(maximumConnections: 4, leaseTimeout: .seconds(300))

    /// The kinds backed by SQL, for tests that reach below the ``ProviderStore`` protocol.
    static var sqlKinds: [StoreKind] { available.filter { $0 != .memory } }

    /// The SQLite kinds, for what SQLite does differently from PostgreSQL.
    static let sqliteKinds: [StoreKind] = [.sqliteInMemory, .sqliteFile]

    /// ``withStore(_:)`` for a SQL kind, with the ``SQLStore`` itself.
    func withSQLStore<R>(_ body: (SQLStore) async throws -> R) async throws -> R {
        try await withStore { store in try await body(try #require(store as? SQLStore, "\(self) is not a SQL store")) }
    }

    private func run<R>(
        _ body: (any ConformingStore) async throws -> R, on store: SQLStore, shutdown: SQLStoreShutdown
    ) async throws -> R {
        let result: R
        do {
            result = try await body(store)
        } catch {
            try await shutdown()
            throw error
        }
        try await shutdown()
        return result
    }
}

let testLogger: Logger = {
    var logger = Logger(label: "AppleIDStoreTests")
    logger.logLevel = .warning
    return logger
}()

/// A unique temporary directory, removed after use.
enum TemporaryDirectory {
    static func with<R>(_ body: (URL) async throws -> R) async throws -> R {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("AppleIDStoreTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        return try await body(url)
    }
}

/// Whole-second dates: they survive every store's date encoding exactly.
enum Fixture {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    static func date(_ offset: TimeInterval) -> Date { t0.addingTimeInterval(offset) }

    static func account(
        id: String = "acct-1", appleID: String = "Jane.Doe@Example.com", createdAt: Date = t0, deletedAt: Date? = nil
    ) -> AppleIDAccount {
        AppleIDAccount(
            id: id, appleID: appleID, passwordHash: "$2b$12$hash", firstName: "Jane", lastName: "Doe",
            email: "jane@example.com", realUserStatus: .likelyReal, totpSecret: "JBSWY3DPEHPK3PXP",
            createdAt: createdAt, deletedAt: deletedAt
        )
    }

    static func grant(
        id: String, accountID: String = "acct-1", groupID: ClientID = "com.example.app", revokedAt: Date? = nil
    ) -> Grant {
        Grant(
            id: id, accountID: accountID, teamID: "TEAM123456", groupID: groupID, clientID: "com.example.web",
            subject: "000123.abcdef0123456789abcdef0123456789.0123", scopes: [.name, .email, .openid],
            email: "relay@privaterelay.appleid.com", isPrivateEmail: true, realUserStatus: .unknown,
            authTime: date(-30), createdAt: date(0), revokedAt: revokedAt
        )
    }

    static func code(hash: String = "code-hash-1", consumedAt: Date? = nil) -> AuthorizationCodeRecord {
        AuthorizationCodeRecord(
            codeHash: hash, grantID: "grant-1", clientID: "com.example.web", redirectURI: "https://example.com/cb",
            codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", nonce: "n-0S6_WzA2Mj",
            expiresAt: date(300), consumedAt: consumedAt
        )
    }

    static let request = ValidatedAuthorization(
        clientID: "com.example.web", teamID: "TEAM123456", groupID: "com.example.app",
        redirectURI: "https://example.com/callback?x=1", includesIDToken: true, responseMode: .formPost,
        scopes: [.name, .email], state: "st-ä/😀", nonce: "nonce-1", codeChallenge: nil
    )

    static func interaction(id: String = "ix-1") -> Interaction {
        Interaction(
            id: id, request: request, browserBindingHash: "binding-hash", csrfToken: "csrf", stage: .signIn,
            createdAt: date(0), expiresAt: date(600)
        )
    }
}
