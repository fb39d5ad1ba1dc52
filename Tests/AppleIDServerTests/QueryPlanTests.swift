import AppleIDProtocol
import AppleIDProvider
import AppleIDStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOPosix
import SQLiteKit
import Testing

/// Every statement of `GET /auth/authorize` and `POST /auth/token` (both grants) finds its rows
/// through an index, so a database with millions of Apple IDs and refresh tokens answers as fast as
/// a small one. SQLite says how it would run each statement (`EXPLAIN QUERY PLAN`); a line starting
/// with `SCAN` reads a whole table.
@Suite struct QueryPlanTests {
    @Test("the authorize and token paths read and write every table through an index")
    func pathsUseIndexes() async throws {
        let connection = try await SQLiteConnection.open(
            storage: .memory, threadPool: .singleton, logger: Logger(label: "test"), on: MultiThreadedEventLoopGroup.singleton.any())
        let recorder = QueryPlanRecorder(connection.sql())
        let store = SQLStore(database: recorder)
        try await store.migrate()
        let server = try await TestServer.make(autoApprove: TestServer.maria.appleID, store: store)
        try await server.app.test(.router) { client in
            let secret = try await server.clientSecret()
            // One request first, so the registry cache and the signing keys are warm as in production.
            _ = try await RP.redeem(client, code: try await RP.code(client), secret: secret)
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
            // A replayed code takes the step-by-step path and revokes the grant.
            #expect(try await RP.redeem(client, code: code, secret: secret).status == .badRequest)
        }
        let plans = try await recorder.plans()
        #expect(plans.count > 5)
        for (sql, plan) in plans {
            // `SCAN CONSTANT ROW` and `SCAN n-ROW VALUES CLAUSE` read the statement's own values.
            let scans = plan.filter { $0.hasPrefix("SCAN") && $0 != "SCAN CONSTANT ROW" && !$0.hasSuffix("VALUES CLAUSE") }
            #expect(scans.isEmpty, "\(sql) → \(plan)")
        }
        // The code is consumed, bound and checked against its grant in one statement.
        #expect(plans.contains { $0.sql.hasPrefix("UPDATE authorization_codes SET consumed_at") && $0.sql.contains("FROM grants") })
        try await connection.close()
    }

    private struct TokenAnswer: Decodable {
        var refreshToken: String?
        enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
    }
}
