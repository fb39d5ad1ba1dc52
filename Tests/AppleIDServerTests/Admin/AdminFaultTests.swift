import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// `POST /admin/faults`, the fault switch of `siwa check` (issue 20), through HTTP.
@Suite("Admin API: the token fault switch")
struct AdminFaultTests {
    static func arm(_ client: any TestClientProtocol, _ body: String) async throws -> TestResponse {
        try await client.execute(uri: "/admin/faults", method: .post, headers: RP.adminHeaders, body: ByteBuffer(string: body))
    }

    @Test("an armed 500 spoils the client's next token response only")
    func armedOnce() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let armed = try await Self.arm(client, #"{"client_id":"com.example.juice.web","fault":"server-error"}"#)
            #expect(armed.status == .noContent)
            let secret = try await server.clientSecret()
            let spoiled = try await RP.redeem(client, code: try await RP.code(client), secret: secret)
            #expect(spoiled.status == .internalServerError)
            #expect(try spoiled.jsonStrings()["error"] == "server_error")
            let next = try await RP.redeem(client, code: try await RP.code(client), secret: secret)
            #expect(next.status == .ok)
        }
    }

    @Test("outside development mode the switch is refused with the reason")
    func refusedOutsideDevelopment() async throws {
        let server = try await TestServer.make { $0.developmentMode = false }
        try await server.app.test(.router) { client in
            let refused = try await Self.arm(client, #"{"client_id":"com.example.juice.web","fault":"alg-none"}"#)
            #expect(refused.status == .badRequest)
            #expect(try refused.jsonStrings()["error_description"]?.contains("development mode") == true)
        }
    }

    @Test("an unknown fault, an unknown client, a delay out of bounds and a missing admin token are refused")
    func refusals() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            #expect(try await Self.arm(client, #"{"client_id":"com.example.juice.web","fault":"nope"}"#).status == .badRequest)
            #expect(try await Self.arm(client, #"{"client_id":"com.nobody","fault":"expired"}"#).status == .notFound)
            #expect(
                try await Self.arm(client, #"{"client_id":"com.example.juice.web","fault":"timeout","delay_seconds":601}"#).status == .badRequest)
            let anonymous = try await client.execute(
                uri: "/admin/faults", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"client_id":"com.example.juice.web","fault":"expired"}"#))
            #expect(anonymous.status == .unauthorized)
        }
    }
}
