import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

@Suite("/auth/authorize: the request log records the request with the client the checks already read")
struct AuthorizeRequestLogTests {
    /// With no registry cache every client lookup is a statement, so a second lookup would show.
    @Test(
        "one authorize request reads the client once, answered or refused, and is logged",
        arguments: [(TestServer.redirectURI, "ok"), ("https://evil.example.com/callback", "invalid_request")])
    func clientReadOnce(redirectURI: String, outcome: String) async throws {
        try await StatementCounter.withSQLiteStore { store, counter in
            let server = try await TestServer.make(store: store) { $0.registryCacheLifetime = 0 }
            try await server.app.test(.router) { client in
                let query = Form.encode([
                    ("client_id", TestServer.servicesID.rawValue), ("redirect_uri", redirectURI), ("response_type", "code"), ("state", "s"),
                ])
                counter.reset()
                _ = try await client.execute(uri: "/auth/authorize?" + query, method: .get)
                #expect(counter.statements(from: "clients") == 1)
            }
            await server.provider.flushRequestLog()
            let log = try await store.requestLog(clientID: TestServer.servicesID, proven: outcome == "ok", limit: 10)
            #expect(log.map(\.outcome) == [outcome])
        }
    }
}
