import AppleIDDevelopmentFaults
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// What `siwa check` (issue 20) asks the admin API: a genuine notification to deliver, the client's
/// request log (why a token request was refused, whether the app revoked), and a user's credential
/// state by Apple ID.
@Suite("Admin API: what siwa check asks the server")
struct AdminCheckSupportTests {
    static func notification(_ client: any TestClientProtocol, _ body: String) async throws -> TestResponse {
        try await client.execute(uri: "/admin/notifications", method: .post, headers: RP.adminHeaders, body: ByteBuffer(string: body))
    }

    @Test("POST /admin/notifications answers a signed consent-revoked for the user, and a spoiled one on request")
    func developmentNotification() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            _ = try await RP.code(client)
            let order = #"{"client_id":"com.example.juice.web","apple_id":"maria@example.com"}"#
            let answer = try await Self.notification(client, order)
            #expect(answer.status == .ok)
            let fields = try answer.jsonStrings()
            let payload = try #require(fields["payload"])
            #expect(try RP.segment(payload, 1).contains(#"consent-revoked"#))
            #expect(try RP.segment(payload, 1).contains(#""jti":"\#(try #require(fields["jti"]))""#))
            let spoiled = try await Self.notification(
                client, #"{"client_id":"com.example.juice.web","apple_id":"maria@example.com","fault":"wrong-aud"}"#)
            #expect(try RP.segment(try #require(spoiled.jsonStrings()["payload"]), 1).contains(".not-this-app"))
        }
    }

    @Test("outside development mode no notification is handed out")
    func refusedOutsideDevelopment() async throws {
        let server = try await TestServer.make { $0.developmentMode = false }
        try await server.app.test(.router) { client in
            _ = try await RP.code(client)
            let refused = try await Self.notification(client, #"{"client_id":"com.example.juice.web","apple_id":"maria@example.com"}"#)
            #expect(refused.status == .badRequest)
            #expect(try refused.jsonStrings()["error_description"]?.contains("development mode") == true)
        }
    }

    @Test("GET /admin/clients/{id}/requests shows why a token request was refused, and a revocation")
    func requestLog() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let secret = try await server.clientSecret()
            let refused = try await RP.redeem(client, code: try await RP.code(client), secret: secret, redirectURI: "https://elsewhere.example/cb")
            #expect(refused.status == .badRequest)
            let tokens = try await RP.redeem(client, code: try await RP.code(client), secret: secret).tokens()
            _ = try await RP.revoke(client, token: try #require(tokens.refreshToken), secret: secret)
            let log = try await client.execute(uri: "/admin/clients/com.example.juice.web/requests", method: .get, headers: RP.adminHeaders)
            #expect(log.status == .ok)
            struct Entry: Decodable {
                var endpoint: String
                var outcome: String
                var reason: String
            }
            struct Entries: Decodable { var requests: [Entry] }
            let entries = try JSONDecoder().decode(Entries.self, from: Data(buffer: log.body)).requests
            #expect(entries.first?.endpoint == "revoke" && entries.first?.outcome == "ok", "newest first")
            let token = try #require(entries.first { $0.endpoint == "token" && $0.outcome == "invalid_grant" })
            #expect(token.reason.contains("redirect_uri"), "\(token)")
        }
    }

    @Test("GET /admin/credential-state takes an Apple ID: authorized, then revoked once the app revoked its token")
    func credentialStateByAppleID() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let uri = "/admin/credential-state?apple_id=maria%40example.com&client_id=com.example.juice.web"
            let secret = try await server.clientSecret()
            let tokens = try await RP.redeem(client, code: try await RP.code(client), secret: secret).tokens()
            #expect(try await client.execute(uri: uri, method: .get, headers: RP.adminHeaders).jsonStrings()["state"] == "authorized")
            _ = try await RP.revoke(client, token: try #require(tokens.refreshToken), secret: secret)
            #expect(try await client.execute(uri: uri, method: .get, headers: RP.adminHeaders).jsonStrings()["state"] == "revoked")
        }
    }
}
