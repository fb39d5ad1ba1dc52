import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// A request refused while its form is decoded, before the engine reads it, is still a refusal:
/// it reaches the request log, the Requests page and `siwa_oauth_answers_total` like every other.
@Suite("/auth/token and /auth/revoke: refusals while decoding are logged and counted")
struct DecodeStageRefusalTests {
    static func metrics(_ client: some TestClientProtocol) async throws -> String {
        try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(TestServer.adminToken)"]).text
    }

    @Test("a token request with a repeated parameter is on the client's Requests page, unproven, and counted", arguments: ["token", "revoke"])
    func repeatedParameter(endpoint: String) async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let form = Form.encode([("client_id", TestServer.servicesID.rawValue), ("client_secret", "x"), ("code", "c1"), ("token", "t1")])
            let response = try await client.execute(
                uri: "/auth/\(endpoint)", method: .post, headers: Form.headers, body: ByteBuffer(string: form + "&code=c2&token=t2"))
            #expect(response.status == .badRequest)
            #expect(try response.jsonStrings() == ["error": "invalid_request"])

            let log = try await server.provider.requestLog(clientID: TestServer.servicesID, teamID: TestServer.teamID)
            #expect(log.proven.isEmpty, "nothing was verified: the refusal proves no client")
            let entry = try #require(log.unproven.first, "the refusal is on the Requests page")
            #expect(entry.endpoint.rawValue == endpoint)
            #expect(entry.outcome == "invalid_request")
            #expect(entry.reason == "parameter code is repeated")
            #expect(try await Self.metrics(client).contains(#"siwa_oauth_answers_total{endpoint="\#(endpoint)",outcome="invalid_request"} 1"#))
        }
    }

    @Test("a token request that is not a form names no client, and is counted", arguments: ["token", "revoke", "usermigrationinfo"])
    func notAForm(endpoint: String) async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let response = try await client.execute(
                uri: "/auth/\(endpoint)", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"client_id":"com.example.juice.web"}"#))
            #expect(response.status == .badRequest)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(try response.jsonStrings() == ["error": "invalid_request"])
            #expect(try await Self.metrics(client).contains(#"siwa_oauth_answers_total{endpoint="\#(endpoint)",outcome="invalid_request"} 1"#))
            let log = try await server.provider.requestLog(clientID: TestServer.servicesID, teamID: TestServer.teamID)
            #expect(log.unproven.isEmpty && log.proven.isEmpty, "a body that was never read names no client")
        }
    }
}
