import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Admin API: Apple IDs, the clock, quirk switches")
struct AdminAccountTests {
    static let admin = NativeCredentialTests.admin

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    @Test("create, list and change Apple IDs; secrets never leave the server")
    func accounts() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let created = try await client.execute(
                uri: "/admin/users", method: .post, headers: Self.admin,
                body: ByteBuffer(string: #"{"apple_id":"sam@example.com","password":"pw","first_name":"Sam","last_name":"Lee","real_user_status":0}"#)
            )
            #expect(created.status == .ok)
            let view = try Self.json(created)
            #expect(view["apple_id"] as? String == "sam@example.com")
            #expect(view["real_user_status"] as? Int == 0)
            #expect((view["current_two_factor_code"] as? String)?.count == 6)
            #expect(!String(buffer: created.body).contains("$2"), "no bcrypt hash in the answer")

            let duplicate = try await client.execute(
                uri: "/admin/users", method: .post, headers: Self.admin, body: ByteBuffer(string: #"{"apple_id":"SAM@example.com","password":"x"}"#))
            #expect(duplicate.status == .conflict)

            let changed = try await client.execute(
                uri: "/admin/users/sam@example.com", method: .patch, headers: Self.admin,
                body: ByteBuffer(string: #"{"first_name":"Samuel","password":"new password","real_user_status":2}"#))
            #expect(try Self.json(changed)["first_name"] as? String == "Samuel")
            let account = try #require(try await server.provider.lookUpAccount(appleID: "sam@example.com"))
            #expect(await Credentials.verifyPassword("new password", hash: account.passwordHash))
            #expect(account.realUserStatus == .likelyReal)

            let list = try await client.execute(uri: "/admin/users", method: .get, headers: Self.admin)
            let users = try #require(try Self.json(list)["users"] as? [[String: Any]])
            #expect(users.compactMap { $0["apple_id"] as? String }.sorted() == ["maria@example.com", "robin@example.com", "sam@example.com"])
        }
    }

    @Test("quirk switches change the next id_token: string booleans, the lifetime and the issuer")
    func quirks() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let set = try await client.execute(
                uri: "/admin/clients/com.example.juice.web/quirks", method: .put, headers: Self.admin,
                body: ByteBuffer(string: #"{"booleans_as_strings":true,"id_token_lifetime":600,"issuer":"https://appleid.apple.com"}"#))
            #expect(set.status == .noContent)
            let refused = try await client.execute(
                uri: "/admin/clients/com.example.juice.web/quirks", method: .put, headers: Self.admin,
                body: ByteBuffer(string: #"{"deletion_event":"account-gone"}"#))
            #expect(refused.status == .badRequest)
            let order =
                #"{"client_id":"com.example.juice.web","redirect_uri":"https://juice.example.com/auth/callback","apple_id":"maria@example.com","response_type":"code id_token","response_mode":"form_post","scope":"email"}"#
            let minted = try await client.execute(uri: "/admin/authorizations", method: .post, headers: Self.admin, body: ByteBuffer(string: order))
            let results = try #require(try Self.json(minted)["results"] as? [[String: String]])
            let token = try #require(results.first?["id_token"])
            let claims = try #require(
                try JSONSerialization.jsonObject(with: Data(try Base64URL.decode(String(token.split(separator: ".")[1])))) as? [String: Any])
            #expect(claims["email_verified"] as? String == "true")
            #expect((claims["exp"] as? Int).map { $0 - (claims["iat"] as? Int ?? 0) } == 600)
            #expect(claims["iss"] as? String == "https://appleid.apple.com")
        }
    }

    @Test("Return URLs are added to a Services ID once, and only absolute URLs without a fragment")
    func returnURLs() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            for _ in 0..<2 {
                let added = try await client.execute(
                    uri: "/admin/clients/com.example.juice.web/return-urls", method: .post, headers: Self.admin,
                    body: ByteBuffer(string: #"{"url":"http://127.0.0.1:9091/auth/apple/callback"}"#))
                #expect(added.status == .noContent)
            }
            let urls = try #require(try await server.provider.registeredClient("com.example.juice.web")?.returnURLs)
            #expect(urls.filter { $0 == "http://127.0.0.1:9091/auth/apple/callback" }.count == 1)
            for bad in [#"{"url":"/relative"}"#, #"{"url":"https://x.example.com/cb#frag"}"#, #"{"url":"ftp://x.example.com/"}"#] {
                let refused = try await client.execute(
                    uri: "/admin/clients/com.example.juice.web/return-urls", method: .post, headers: Self.admin, body: ByteBuffer(string: bad))
                #expect(refused.status == .badRequest, "\(bad)")
            }
            let onAppID = try await client.execute(
                uri: "/admin/clients/com.example.juice/return-urls", method: .post, headers: Self.admin,
                body: ByteBuffer(string: #"{"url":"https://x.example.com/cb"}"#))
            #expect(onAppID.status == .badRequest)
            let unknown = try await client.execute(
                uri: "/admin/clients/com.example.nobody/return-urls", method: .post, headers: Self.admin,
                body: ByteBuffer(string: #"{"url":"https://x.example.com/cb"}"#))
            #expect(unknown.status == .notFound)
        }
    }

    @Test("moving the clock expires codes")
    func clock() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let order =
                #"{"client_id":"com.example.juice.web","redirect_uri":"https://juice.example.com/auth/callback","apple_id":"maria@example.com"}"#
            let minted = try await client.execute(uri: "/admin/authorizations", method: .post, headers: Self.admin, body: ByteBuffer(string: order))
            let code = try #require((try Self.json(minted)["results"] as? [[String: String]])?.first?["code"])
            let moved = try await client.execute(
                uri: "/admin/clock/advance", method: .post, headers: Self.admin, body: ByteBuffer(string: #"{"seconds":301}"#))
            #expect(moved.status == .ok)
            let secret = try await server.clientSecret()
            let redeemed = try await client.execute(
                uri: "/auth/token", method: .post, headers: Form.headers,
                body: ByteBuffer(
                    string: Form.encode([
                        ("client_id", TestServer.servicesID.rawValue), ("client_secret", secret), ("code", code),
                        ("grant_type", "authorization_code"),
                        ("redirect_uri", TestServer.redirectURI),
                    ])))
            #expect(String(buffer: redeemed.body) == #"{"error":"invalid_grant","error_description":"The code has expired or has been revoked."}"#)
        }
    }

    @Test("a headless authorization the rules refuse is a 400 with the reason, not a 200 whose result is an error")
    func refusedAuthorization() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            // The Return URL is proven, so a browser would get the error at its callback; the admin
            // caller has no callback, and must not mistake the refusal for an answer.
            let order =
                #"{"client_id":"com.example.juice.web","redirect_uri":"https://juice.example.com/auth/callback","apple_id":"maria@example.com","scope":"name email","response_mode":"query"}"#
            let refused = try await client.execute(uri: "/admin/authorizations", method: .post, headers: Self.admin, body: ByteBuffer(string: order))
            #expect(refused.status == .badRequest, "\(String(buffer: refused.body))")
            let answer = try Self.json(refused)
            #expect(answer["error"] as? String == "invalid_request")
            #expect((answer["error_description"] as? String)?.contains("form_post") == true, "\(answer)")
            #expect(answer["results"] == nil)
        }
    }
}
