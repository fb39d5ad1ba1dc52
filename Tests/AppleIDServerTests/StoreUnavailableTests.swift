import AppleIDProtocol
import AppleIDProvider
import AppleIDStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import Synchronization
import Testing

/// Issue 13: when the database cannot answer (PostgreSQL restarting, the pool exhausted), the server
/// answers `503` with `Retry-After` at once: never a hang, never a `500` with internals.
@Suite("The database unavailable: 503 with Retry-After")
struct StoreUnavailableTests {
    @Test("/auth/token answers 503 in Apple's JSON error shape, with Retry-After")
    func tokenEndpoint() async throws {
        try await withOutage { server, outage in
            try await server.app.test(.router) { client in
                let secret = try await server.clientSecret()
                let code = try await RP.code(client)
                outage.begin()
                let refused = try await RP.redeem(client, code: code, secret: secret)
                #expect(refused.status == .serviceUnavailable)
                #expect(refused.headers[.retryAfter] == "2")
                #expect(refused.text == #"{"error":"temporarily_unavailable"}"#)
                outage.end()
                #expect(try await RP.redeem(client, code: code, secret: secret).status == .ok)
            }
        }
    }

    /// CI saw a refresh during a PostgreSQL restart wait 10 s: its client's cached registry entry had
    /// expired, so authenticating it waited out one lease, and logging the refusal for the console
    /// asked the unavailable database for the client again and waited out a second.
    @Test("an outage costs a token request one wait: the database is tried once, then the answer is 503")
    func oneWaitPerRequest() async throws {
        try await withOutage { server, outage in
            try await server.app.test(.router) { client in
                let secret = try await server.clientSecret()
                let code = try await RP.code(client)
                server.clock.advance(by: 60)  // the registry cache's entries have expired
                outage.begin()
                let refused = try await RP.redeem(client, code: code, secret: secret)
                #expect(refused.status == .serviceUnavailable)
                #expect(outage.refusedStatements == 1)
            }
        }
    }

    @Test("pages and the admin API answer 503 with Retry-After, and say nothing of the database")
    func otherEndpoints() async throws {
        try await withOutage { server, outage in
            try await server.app.test(.router) { client in
                outage.begin()
                let authorize = try await client.execute(
                    uri: "/auth/authorize?client_id=\(TestServer.servicesID)&redirect_uri=\(TestServer.redirectURI)&response_type=code",
                    method: .get)
                let admin = try await client.execute(
                    uri: "/admin/users", method: .get, headers: [.authorization: "Bearer \(TestServer.adminToken)"])
                for answer in [authorize, admin] {
                    #expect(answer.status == .serviceUnavailable)
                    #expect(answer.headers[.retryAfter] == "2")
                    #expect(!answer.text.lowercased().contains("sql"))
                }
            }
        }
    }

    /// A server on a SQLite store whose database can be made unavailable and available again.
    private func withOutage(_ body: (TestServer, Outage) async throws -> Void) async throws {
        let connection = try await SQLiteConnection.open(
            storage: .memory, threadPool: .singleton, logger: Logger(label: "test"), on: MultiThreadedEventLoopGroup.singleton.any())
        let outage = Outage()
        let store = SQLStore(database: OutageDatabase(inner: connection.sql(), outage: outage))
        try await store.migrate()
        do {
            try await body(try await TestServer.make(store: store), outage)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }
}

/// Whether the database is down, and how many statements it refused while it was.
final class Outage: Sendable {
    private let state = Mutex((down: false, refused: 0))
    var isDown: Bool { state.withLock { $0.down } }
    var refusedStatements: Int { state.withLock { $0.refused } }
    func begin() { state.withLock { $0.down = true } }
    func end() { state.withLock { $0.down = false } }

    /// Whether a statement is refused now; counts it if so.
    func refuses() -> Bool {
        state.withLock { state in
            if state.down { state.refused += 1 }
            return state.down
        }
    }
}

/// Fails every statement with ``StoreUnavailableError`` during an outage, as the PostgreSQL pool does.
struct OutageDatabase: SQLDatabaseWrapper {
    let inner: any SQLDatabase
    let outage: Outage

    var wrapped: any SQLDatabase { inner }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        if outage.refuses() { throw StoreUnavailableError(reason: "test outage") }
        try await inner.execute(sql: query, onRow)
    }
}
