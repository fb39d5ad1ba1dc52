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

    /// CI saw `/health/ready` take over 10 s while PostgreSQL restarted: the probe gave up after its
    /// 2 s, then waited for the statement it had given up on, which did not return.
    @Test("/health/ready answers 503 on time even when a statement never returns", .timeLimit(.minutes(5)))
    func readinessDoesNotWaitForAHungStatement() async throws {
        try await withOutage { server, outage in
            try await server.app.test(.router) { client in
                outage.beginHanging()
                let ready = try await client.execute(uri: "/health/ready", method: .get)
                outage.end()
                #expect(ready.status == .serviceUnavailable)
                #expect(ready.text.contains("did not answer"))
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

/// Whether the database is down or hangs, and how many statements it refused while it was down.
final class Outage: Sendable {
    private struct State {
        var down = false
        var refused = 0
        /// Statements held without an answer, as on a connection PostgreSQL dropped mid-statement;
        /// they ignore cancellation and go on at ``end()``.
        var held: [CheckedContinuation<Void, Never>]?
    }
    private let state = Mutex(State())
    var refusedStatements: Int { state.withLock { $0.refused } }
    func begin() { state.withLock { $0.down = true } }
    func beginHanging() { state.withLock { $0.held = [] } }
    func end() {
        let held = state.withLock { state in
            defer { state = State(refused: state.refused) }
            return state.held ?? []
        }
        for statement in held { statement.resume() }
    }

    /// Lets a statement through, holds it until ``end()``, or refuses it (counted).
    func admit() async throws {
        let refused = state.withLock { state in
            if state.down { state.refused += 1 }
            return state.down
        }
        if refused { throw StoreUnavailableError(reason: "test outage") }
        await withCheckedContinuation { continuation in
            let waits = state.withLock { state in
                state.held?.append(continuation)
                return state.held != nil
            }
            if !waits { continuation.resume() }
        }
    }
}

/// Fails every statement with ``StoreUnavailableError`` during an outage, as the PostgreSQL pool does.
struct OutageDatabase: SQLDatabaseWrapper {
    let inner: any SQLDatabase
    let outage: Outage

    var wrapped: any SQLDatabase { inner }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await outage.admit()
        try await inner.execute(sql: query, onRow)
    }
}
