import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// `POST /admin/reset` (issue 36): the seeded state again, through HTTP; development mode only.
@Suite("Admin API: reset to the seeded state")
struct AdminResetTests {
    static func reset(_ client: any TestClientProtocol) async throws -> TestResponse {
        try await client.execute(uri: "/admin/reset", method: .post, headers: RP.adminHeaders)
    }

    static func appleIDs(_ client: any TestClientProtocol) async throws -> [String] {
        let response = try await client.execute(uri: "/admin/users", method: .get, headers: RP.adminHeaders)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
        let users = try #require(object["users"] as? [[String: Any]])
        return users.compactMap { $0["apple_id"] as? String }.sorted()
    }

    @Test("a reset forgets the sign-in, its tokens, an added Apple ID and the moved clock; the seeded Apple IDs stay")
    func resetForgets() async throws {
        let server = try await TestServer.make()
        try await server.provider.recordSeededState()
        try await server.app.test(.router) { client in
            let seeded = try await Self.appleIDs(client)
            let secret = try await server.clientSecret()
            let redeemed = try await RP.redeem(client, code: try await RP.code(client), secret: secret)
            let tokens = try #require(try JSONSerialization.jsonObject(with: Data(buffer: redeemed.body)) as? [String: Any])
            let refreshToken = try #require(tokens["refresh_token"] as? String)
            let added = try await client.execute(
                uri: "/admin/users", method: .post, headers: RP.adminHeaders,
                body: ByteBuffer(string: #"{"apple_id":"new@example.com","password":"a new password"}"#))
            #expect(added.status == .ok)
            let moved = try await client.execute(
                uri: "/admin/clock/advance", method: .post, headers: RP.adminHeaders, body: ByteBuffer(string: #"{"seconds":600}"#))
            #expect(moved.status == .ok)

            #expect(try await Self.reset(client).status == .noContent)

            #expect(try await Self.appleIDs(client) == seeded)
            #expect(server.clock.offset == 0)
            let refreshed = try await RP.refresh(client, refreshToken: refreshToken, secret: secret)
            #expect(refreshed.status == .badRequest)
            #expect(try refreshed.jsonStrings()["error"] == "invalid_grant")
            // The seeded registry and Apple IDs still sign in.
            #expect(try await RP.redeem(client, code: try await RP.code(client), secret: secret).status == .ok)
        }
    }

    @Test("outside development mode, or with no seeded state recorded, a reset is refused with the reason")
    func refusals() async throws {
        let production = try await TestServer.make { $0.developmentMode = false }
        try await production.provider.recordSeededState()
        try await production.app.test(.router) { client in
            let refused = try await Self.reset(client)
            #expect(refused.status == .badRequest)
            #expect(try refused.jsonStrings()["error_description"]?.contains("development mode") == true)
            let anonymous = try await client.execute(uri: "/admin/reset", method: .post)
            #expect(anonymous.status == .unauthorized)
        }
        let unseeded = try await TestServer.make()
        try await unseeded.app.test(.router) { client in
            let refused = try await Self.reset(client)
            #expect(refused.status == .badRequest)
            #expect(try refused.jsonStrings()["error_description"]?.contains("seeded state") == true)
        }
    }
}
