import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import SignInWithApple
import Testing

@Suite("The native side, emulated: credentials and credential state")
struct NativeCredentialTests {
    static let admin: HTTPFields = [.authorization: "Bearer \(TestServer.adminToken)", .contentType: "application/json"]

    static func mint(_ client: some TestClientProtocol, _ body: String) async throws -> TestResponse {
        try await client.execute(uri: "/admin/native-credentials", method: .post, headers: admin, body: ByteBuffer(string: body))
    }

    static func state(_ client: some TestClientProtocol, user: String) async throws -> String? {
        let response = try await client.execute(
            uri: "/admin/credential-state?user=\(user)&client_id=\(TestServer.bundleID.rawValue)", method: .get, headers: admin)
        return try JSONDecoder().decode([String: String].self, from: Data(buffer: response.body))["state"]
    }

    @Test("first credential: fullName and email, hashed nonce, c_hash; its code is redeemed without redirect_uri")
    func firstAndLaterCredential() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let nonce = Nonce(raw: "app-raw-nonce", convention: .sha256)
            let first = try await Self.mint(
                client, #"{"bundle_id":"com.example.juice","apple_id":"maria@example.com","scope":"name email","nonce":"\#(nonce.transmittedValue)"}"#
            )
            #expect(first.status == .ok)
            let credential = try #require(try JSONSerialization.jsonObject(with: Data(buffer: first.body)) as? [String: Any])
            #expect((credential["fullName"] as? [String: String])?["firstName"] == "Maria")
            #expect(credential["email"] as? String == TestServer.maria.email)
            #expect(credential["realUserStatus"] as? Int == 2)
            #expect(credential["authorizedScopes"] as? [String] == ["name", "email"])
            let token = try #require(credential["identityToken"] as? String)
            let code = try #require(credential["authorizationCode"] as? String)

            let verifier = IdentityTokenVerifier(
                issuers: [TestServer.issuer], audiences: [TestServer.bundleID.rawValue],
                keys: AppleKeySet(jwksJSON: server.provider.keyRing.publishedKeySetJSON), clock: { server.clock.now() })
            let identity = try await verifier.verify(token, nonce: nonce, authorizationCode: code)
            #expect(identity.subject == credential["user"] as? String)

            let secret = try await server.clientSecret(for: TestServer.bundleID)
            let redeemed = try await client.execute(
                uri: "/auth/token", method: .post, headers: Form.headers,
                body: ByteBuffer(
                    string: Form.encode([
                        ("client_id", TestServer.bundleID.rawValue), ("client_secret", secret), ("code", code), ("grant_type", "authorization_code"),
                    ])))
            #expect(redeemed.status == .ok)

            let later = try await Self.mint(client, #"{"bundle_id":"com.example.juice","apple_id":"maria@example.com","scope":"name email"}"#)
            let laterCredential = try #require(try JSONSerialization.jsonObject(with: Data(buffer: later.body)) as? [String: Any])
            #expect(laterCredential["fullName"] == nil)
            #expect(laterCredential["email"] == nil)
            #expect(laterCredential["user"] as? String == identity.subject)
        }
    }

    @Test("existing credentials only: refused before the first authorization, silent after it")
    func existingCredentialsOnly() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let silent = #"{"bundle_id":"com.example.juice","apple_id":"maria@example.com","existing_credentials_only":true}"#
            let before = try await Self.mint(client, silent)
            #expect(before.status == .notFound)
            #expect(String(buffer: before.body).contains("no existing credential"))
            #expect(try AdminAccountTests.json(before)["code"] as? Int == 1001)
            _ = try await Self.mint(client, #"{"bundle_id":"com.example.juice","apple_id":"maria@example.com","scope":"email"}"#)
            let after = try await Self.mint(client, silent)
            #expect(after.status == .ok)
        }
    }

    @Test("a canceled sheet is ASAuthorizationError.canceled (1001) and authorizes nothing")
    func canceled() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let answer = try await Self.mint(client, #"{"bundle_id":"com.example.juice","apple_id":"maria@example.com","cancel":true}"#)
            #expect(answer.status == .conflict)
            let failure = try AdminAccountTests.json(answer)
            #expect(failure["error"] as? String == "ASAuthorizationError.canceled")
            #expect(failure["code"] as? Int == 1001)
            let account = try #require(try await server.provider.lookUpAccount(appleID: TestServer.maria.appleID))
            #expect(try await server.consent(of: account) == nil)
        }
    }

    @Test("credential state: notFound, authorized, revoked after Stop using, revoked after deletion")
    func credentialState() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            #expect(try await Self.state(client, user: "000000.00000000000000000000000000000000.0000") == "notFound")
            let minted = try await Self.mint(client, #"{"bundle_id":"com.example.juice","apple_id":"maria@example.com","scope":"email"}"#)
            let user = try #require(try JSONSerialization.jsonObject(with: Data(buffer: minted.body)) as? [String: Any])["user"] as? String
            let subject = try #require(user)
            #expect(try await Self.state(client, user: subject) == "authorized")

            let stop = try await client.execute(
                uri: "/admin/users/maria@example.com/stop-using", method: .post, headers: Self.admin,
                body: ByteBuffer(string: #"{"group_id":"com.example.juice"}"#))
            #expect(stop.status == .noContent)
            #expect(try await Self.state(client, user: subject) == "revoked")

            _ = try await Self.mint(client, #"{"bundle_id":"com.example.juice","apple_id":"maria@example.com","scope":"email"}"#)
            #expect(try await Self.state(client, user: subject) == "authorized")
            let delete = try await client.execute(uri: "/admin/users/maria@example.com", method: .delete, headers: Self.admin)
            #expect(delete.status == .noContent)
            #expect(try await Self.state(client, user: subject) == "revoked")

            let deliveries = try await client.execute(uri: "/admin/deliveries", method: .get, headers: Self.admin)
            let log = try #require(try JSONSerialization.jsonObject(with: Data(buffer: deliveries.body)) as? [String: [[String: Any]]])
            let types = (log["deliveries"] ?? []).compactMap { (($0["message"] as? [String: Any])?["event"] as? [String: Any])?["type"] as? String }
            #expect(types.sorted() == ["account-delete", "consent-revoked"])
        }
    }

    @Test("admin lifecycle calls need the admin token and a valid endpoint URL")
    func adminGuards() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let anonymous = try await client.execute(uri: "/admin/users/maria@example.com", method: .delete)
            #expect(anonymous.status == .unauthorized)
            let bad = try await client.execute(
                uri: "/admin/app-groups/com.example.juice/notification-endpoint", method: .put, headers: Self.admin,
                body: ByteBuffer(string: #"{"url":"ftp://x"}"#))
            #expect(bad.status == .badRequest)
            let good = try await client.execute(
                uri: "/admin/app-groups/com.example.juice/notification-endpoint", method: .put, headers: Self.admin,
                body: ByteBuffer(string: #"{"url":"https://juice.example.com/apple"}"#))
            #expect(good.status == .noContent)
            #expect(try await server.provider.registeredAppGroup(TestServer.bundleID)?.notificationEndpoint == "https://juice.example.com/apple")
        }
    }
}
