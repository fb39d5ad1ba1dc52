import AppleIDProtocol
import AppleIDProvider
import AppleIDStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOPosix
import PostgresKit
import ServerTestSupport
import Testing

/// Every statement of `GET /auth/authorize` and `POST /auth/token` (both grants), and the request log's
/// batch, finds its rows through an index, so a database with millions of Apple IDs and refresh tokens
/// answers as fast as a small one.
@Suite struct QueryPlanTests {
    /// SQLite says how it would run each statement (`EXPLAIN QUERY PLAN`); a line starting with `SCAN`
    /// reads a whole table.
    @Test("SQLite: the authorize and token paths read and write every table through an index")
    func sqlitePathsUseIndexes() async throws {
        try await SQLiteTestStore.with(wrapping: QueryPlanRecorder.sqlite) { store, recorder in
            let plans = try await Self.plansOfThePaths(store: store, recorder: recorder)
            for (sql, plan) in plans {
                // `SCAN CONSTANT ROW` and `SCAN n-ROW VALUES CLAUSE` read the statement's own values.
                let scans = plan.filter { $0.hasPrefix("SCAN") && $0 != "SCAN CONSTANT ROW" && !$0.hasSuffix("VALUES CLAUSE") }
                #expect(scans.isEmpty, "\(sql) → \(plan)")
            }
        }
    }

    /// On a few rows PostgreSQL's planner reads a table whole because that is cheaper, so the test
    /// turns sequential scans off for its session (`enable_seqscan = off`): the planner then scans only
    /// a table that no index can serve, which is what would hurt at a million rows.
    @Test(
        "PostgreSQL: the authorize and token paths read and write every table through an index",
        .enabled(if: ProcessInfo.processInfo.environment["SIWA_TEST_POSTGRES_URL"] != nil))
    func postgresPathsUseIndexes() async throws {
        let url = try #require(ProcessInfo.processInfo.environment["SIWA_TEST_POSTGRES_URL"])
        let schema = "plans_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        var configuration = try SQLPostgresConfiguration(url: url).coreConfiguration
        configuration.options.additionalStartupParameters = [("search_path", schema)]
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration, id: 1, logger: Logger(label: "test"))
        let database = connection.sql()
        do {
            try await database.raw("CREATE SCHEMA \(ident: schema)").run()
            try await database.raw("SET enable_seqscan = off").run()
            let recorder = QueryPlanRecorder(database, explain: .postgres)
            let store = SQLStore(database: recorder)
            try await store.migrate()
            let plans = try await Self.plansOfThePaths(store: store, recorder: recorder)
            for (sql, plan) in plans {
                #expect(!plan.contains { $0.contains("Seq Scan") }, "\(sql) → \(plan.joined(separator: "\n"))")
            }
        } catch {
            Issue.record("the PostgreSQL plan test failed: \(String(reflecting: error))")
        }
        try await database.raw("DROP SCHEMA IF EXISTS \(ident: schema) CASCADE").run()
        try await connection.close()
    }

    /// Signs in once to warm the caches, then records an authorization, its code's exchange, a refresh,
    /// a replayed code and the request log's batch, and returns the plan of every statement they ran.
    private static func plansOfThePaths(store: SQLStore, recorder: QueryPlanRecorder) async throws -> [(sql: String, plan: [String])] {
        let server = try await TestServer.make(autoApprove: TestServer.maria.appleID, store: store)
        try await server.app.test(.router) { client in
            let secret = try await server.clientSecret()
            // One request first, so the registry cache and the signing keys are warm as in production.
            _ = try await RP.redeem(client, code: try await RP.code(client), secret: secret)
            await server.provider.flushRequestLog()
            recorder.reset()

            let query = Form.encode([
                ("client_id", TestServer.servicesID.rawValue), ("redirect_uri", TestServer.redirectURI), ("response_type", "code"),
                ("state", "s"),
            ])
            let authorized = try await client.execute(uri: "/auth/authorize?" + query, method: .get)
            #expect(authorized.status == .found)
            let location = try #require(authorized.headers[.location])
            let code = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "code" }?.value)
            let redeemed = try await RP.redeem(client, code: code, secret: secret)
            #expect(redeemed.status == .ok)
            let refreshToken = try #require(try JSONDecoder().decode(TokenAnswer.self, from: Data(buffer: redeemed.body)).refreshToken)
            #expect(try await RP.refresh(client, refreshToken: refreshToken, secret: secret).status == .ok)
            // A replayed code is refused by the redemption, read to tell why, and its grant revoked.
            #expect(try await RP.redeem(client, code: code, secret: secret).status == .badRequest)
        }
        await server.provider.flushRequestLog()
        let plans = try await recorder.plans()
        #expect(plans.count > 5)
        // The code is consumed, bound and checked against its grant in one statement (on PostgreSQL
        // inside the one statement that also inserts the tokens).
        #expect(
            plans.contains {
                ($0.sql.hasPrefix("UPDATE authorization_codes SET consumed_at") || $0.sql.hasPrefix("WITH redeemed AS (UPDATE authorization_codes"))
                    && $0.sql.contains("FROM grants")
            })
        #expect(plans.contains { $0.sql.hasPrefix("INSERT INTO \"request_log\"") })
        return plans
    }

    private struct TokenAnswer: Decodable {
        var refreshToken: String?
        enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
    }
}
