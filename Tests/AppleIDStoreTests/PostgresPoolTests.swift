import AppleIDProvider
import Foundation
import Logging
import PostgresKit
import Testing

@testable import AppleIDStore

/// Issue 13: the PostgreSQL store survives a database restart and never waits without bound.
/// Runs when `SIWA_TEST_POSTGRES_URL` names a test database (`.ci/run` sets it).
@Suite("PostgreSQL pool: reconnect, bounded waits", .enabled(if: StoreKind.postgresURL != nil))
struct PostgresPoolTests {
    @Test("after PostgreSQL ends every connection of the store (as a restart does), later calls reconnect")
    func reconnectsAfterTheConnectionsEnd() async throws {
        let name = "siwa-test-" + UUID().uuidString.prefix(8).lowercased()
        try await Self.withPostgresStore(
            PostgresPoolSettings(
                maximumConnections: StoreKind.testPool.maximumConnections, leaseTimeout: StoreKind.testPool.leaseTimeout, applicationName: name)
        ) { store in
            try await store.save(Fixture.account())
            let ended = try await Self.terminateConnections(applicationName: name)
            #expect(ended >= 1)
            // A call that meets a connection which has not yet noticed its end fails as unavailable
            // (never hangs); each dead connection fails at most once, then the pool opens new ones.
            var failures = 0
            while true {
                do {
                    let account = try await store.account(id: Fixture.account().id)
                    #expect(account?.appleID == Fixture.account().appleID)
                    break
                } catch is StoreUnavailableError {
                    failures += 1
                    try #require(failures <= ended, "more failures than connections that ended")
                }
            }
        }
    }

    @Test("when every connection stays busy past the lease timeout, a call throws StoreUnavailableError")
    func exhaustedPoolIsUnavailable() async throws {
        // 10 s, not less: under the whole suite's load the store's own start-up waits for CPU too.
        let settings = PostgresPoolSettings(maximumConnections: 1, leaseTimeout: .seconds(10))
        try await Self.withPostgresStore(settings) { store in
            // The only connection is opened first, so that the transaction below takes an open one:
            // on a loaded machine opening it may itself take longer than the lease.
            try await Self.warmUp(store)
            let (held, holding) = AsyncStream.makeStream(of: Void.self)
            let (release, releasing) = AsyncStream.makeStream(of: Void.self)
            async let transaction: Void = store.transaction { _ in
                holding.yield()
                for await _ in release { break }
            }
            for await _ in held { break }
            await #expect(throws: StoreUnavailableError.self) { try await store.account(id: "acct-1") }
            releasing.yield()
            try await transaction
            #expect(try await store.account(id: "acct-1") == nil)
        }
    }

    @Test("a database that cannot be reached fails the start within the lease timeout, as unavailable")
    func unreachableDatabase() async throws {
        // Port 1 on loopback: nothing listens, the connection is refused at once.
        let url = "postgres://siwa:siwa@127.0.0.1:1/none?sslmode=disable"
        let started = ContinuousClock.now
        await #expect(throws: StoreUnavailableError.self) {
            _ = try await SQLStore.postgres(url: url, pool: PostgresPoolSettings(leaseTimeout: .seconds(1)), logger: testLogger)
        }
        // Bounded, not forever (the bound is loose: other suites may hold the concurrency pool meanwhile).
        #expect(ContinuousClock.now - started < .seconds(300))
    }

    /// One statement that succeeds, retried while the pool cannot open its connection in time.
    private static func warmUp(_ store: SQLStore) async throws {
        for attempt in 1... {
            do {
                _ = try await store.account(id: "warm-up")
                return
            } catch is StoreUnavailableError where attempt < 10 {}
        }
    }

    /// A store in a fresh schema of the test database, dropped afterwards. Its start (migrations) is
    /// retried while the machine is too loaded to open a connection within a short lease.
    static func withPostgresStore(_ settings: PostgresPoolSettings, _ body: (SQLStore) async throws -> Void) async throws {
        let url = try #require(StoreKind.postgresURL)
        let schema = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        var started: (SQLStore, @Sendable () async throws -> Void)?
        for attempt in 1...10 where started == nil {
            do {
                started = try await SQLStore.postgres(url: url, schema: schema, pool: settings, logger: testLogger)
            } catch is StoreUnavailableError where attempt < 10 {
            } catch {
                Issue.record("the store's start failed with \(String(reflecting: error))")
                throw error
            }
        }
        let (store, shutdown) = try #require(started)
        var failure: (any Error)?
        do {
            try await body(store)
        } catch {
            // PSQLError hides its details from `description`: say exactly what the body met.
            Issue.record("the test failed with \(String(reflecting: error))")
            failure = error
        }
        // The schema is dropped from a connection of its own: after the reconnect test the store's
        // pool may still hold a connection that PostgreSQL ended, and cleaning up is not under test.
        try await Self.withOwnConnection { try await $0.sql().raw("DROP SCHEMA \(ident: schema) CASCADE").run() }
        // Shutting down closes connections the server may already have ended; its error is not
        // what these tests check, so it is not allowed to hide the body's outcome.
        try? await shutdown()
        if let failure { throw failure }
    }

    /// PostgresNIO drops a statement written to a channel that has closed, and the statement then
    /// waits for ever: two instances under load hung that way while PostgreSQL restarted.
    @Test("a statement on a leased connection that has closed fails as unavailable, never waits", .timeLimit(.minutes(5)))
    func closedConnectionRefusesStatements() async throws {
        let url = try #require(StoreKind.postgresURL)
        let connection = try await PostgresConnection.connect(
            configuration: try SQLPostgresConfiguration(url: url).coreConfiguration, id: 98, logger: testLogger)
        try await connection.close()
        await #expect(throws: StoreUnavailableError.self) {
            try await LiveConnectionDatabase(connection, preparedStatements: nil).raw("SELECT 1").run()
        }
    }

    /// Runs `work` on a fresh connection to the test database (connecting is retried: on a loaded
    /// machine it can fail), and records any failure with its details, which `PSQLError` hides.
    static func withOwnConnection<T: Sendable>(_ work: (PostgresConnection) async throws -> T) async throws -> T {
        let url = try #require(StoreKind.postgresURL)
        let configuration = try SQLPostgresConfiguration(url: url).coreConfiguration
        var opened: PostgresConnection?
        for attempt in 1...5 where opened == nil {
            do {
                opened = try await PostgresConnection.connect(configuration: configuration, id: 99, logger: testLogger)
            } catch {
                if attempt == 5 {
                    Issue.record("connecting to the test database failed: \(String(reflecting: error))")
                    throw error
                }
            }
        }
        let connection = try #require(opened)
        do {
            let result = try await work(connection)
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            Issue.record("a statement on the test's own connection failed: \(String(reflecting: error))")
            throw error
        }
    }

    /// Ends the server side of every connection named `applicationName`, from a connection of its own,
    /// and returns once PostgreSQL lists none of them any more.
    private static func terminateConnections(applicationName: String) async throws -> Int {
        try await withOwnConnection { connection in
            let rows = try await connection.sql().raw(
                "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = \(bind: applicationName)"
            ).all()
            for _ in 0..<1_000 {
                let left = try await connection.sql().raw(
                    "SELECT count(*) AS left FROM pg_stat_activity WHERE application_name = \(bind: applicationName)"
                ).first()?.decode(column: "left", as: Int.self)
                if left == 0 { break }
            }
            return rows.count
        }
    }
}
