import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import Testing

@Suite("Discovery, /auth/keys, key rotation, security headers and the admin API's guard")
struct DiscoveryTests {
    @Test("the discovery document has this server's URLs and Apple's fields and values")
    func discovery() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let response = try await client.execute(uri: "/.well-known/openid-configuration", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json;charset=UTF-8")
            #expect(!response.text.contains(#"\/"#))
            let document = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            #expect(
                Set(document.keys) == [
                    "issuer", "authorization_endpoint", "token_endpoint", "revocation_endpoint", "jwks_uri", "response_types_supported",
                    "response_modes_supported", "subject_types_supported", "id_token_signing_alg_values_supported", "scopes_supported",
                    "token_endpoint_auth_methods_supported", "claims_supported",
                ])
            #expect(document["issuer"] as? String == "http://127.0.0.1:8080")
            #expect(document["authorization_endpoint"] as? String == "http://127.0.0.1:8080/auth/authorize")
            #expect(document["token_endpoint"] as? String == "http://127.0.0.1:8080/auth/token")
            #expect(document["revocation_endpoint"] as? String == "http://127.0.0.1:8080/auth/revoke")
            #expect(document["jwks_uri"] as? String == "http://127.0.0.1:8080/auth/keys")
            #expect(document["response_types_supported"] as? [String] == ["code"])
            #expect(document["response_modes_supported"] as? [String] == ["query", "fragment", "form_post"])
            #expect(document["subject_types_supported"] as? [String] == ["pairwise"])
            #expect(document["id_token_signing_alg_values_supported"] as? [String] == ["RS256"])
            #expect(document["scopes_supported"] as? [String] == ["openid", "email", "name"])
            #expect(document["token_endpoint_auth_methods_supported"] as? [String] == ["client_secret_post"])
            #expect(
                document["claims_supported"] as? [String] == [
                    "aud", "email", "email_verified", "exp", "iat", "is_private_email", "iss", "nonce", "nonce_supported",
                    "real_user_status", "sub", "transfer_sub",
                ])
        }
    }

    /// One JWK of `/auth/keys` exactly as Apple writes it: these members, in this order, nothing else.
    static var jwkPattern: Regex<(Substring, Substring, Substring)> {
        #/\{"kty":"RSA","kid":"([A-Za-z0-9]+)","use":"sig","alg":"RS256","n":"([A-Za-z0-9_-]+)","e":"AQAB"\}/#
    }

    /// The JWKs of `/auth/keys`, parsed.
    static func publishedKeys(_ client: any TestClientProtocol) async throws -> [[String: String]] {
        let response = try await client.execute(uri: "/auth/keys", method: .get)
        let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
        guard let object, Set(object.keys) == ["keys"], let keys = object["keys"] as? [[String: String]] else {
            throw RP.UnexpectedResponse(status: response.status, body: response.text)
        }
        return keys
    }

    static func publishedKeyIDs(_ client: any TestClientProtocol) async throws -> [String] {
        try await publishedKeys(client).compactMap { $0["kid"] }
    }

    @Test("/auth/keys publishes RSA-2048 public keys with exactly kty, kid, use, alg, n, e and nothing private")
    func keys() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let response = try await client.execute(uri: "/auth/keys", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json;charset=UTF-8")
            let keys = try await Self.publishedKeys(client)
            #expect(keys.count >= 2)
            for key in keys {
                #expect(Set(key.keys) == ["kty", "kid", "use", "alg", "n", "e"])
                #expect(key["kty"] == "RSA")
                #expect(key["use"] == "sig")
                #expect(key["alg"] == "RS256")
                #expect(key["e"] == "AQAB")
                #expect(try Base64URL.decode(try #require(key["n"])).count == 256)
                #expect(key["kid"]?.wholeMatch(of: #/[A-Za-z0-9]{10}/#) != nil)
            }
            let ids = keys.compactMap { $0["kid"] }
            #expect(Set(ids).count == ids.count)
            #expect(ids.contains(server.provider.keyRing.activeKeyID.rawValue))
            for member in ["\"d\"", "\"p\"", "\"q\"", "\"dp\"", "\"dq\"", "\"qi\""] {
                #expect(!response.text.contains(member))
            }
            // jwt-kit reads it as a relying party would.
            let collection = JWTKeyCollection()
            try await collection.add(jwksJSON: response.text)
        }
    }

    @Test("/auth/keys writes each key's members in Apple's order: kty, kid, use, alg, n, e")
    func keysMemberOrder() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let text = try await client.execute(uri: "/auth/keys", method: .get).text
            let matches = text.matches(of: Self.jwkPattern)
            #expect(matches.count >= 2)
            // The whole body is {"keys":[jwk,jwk,...]}: nothing but the matched keys.
            let rebuilt = #"{"keys":["# + matches.map { String(text[$0.range]) }.joined(separator: ",") + "]}"
            #expect(text == rebuilt)
            #expect(matches.map { String($0.1) } == server.provider.keyRing.publishedKeyIDs.map(\.rawValue))
        }
    }

    @Test("rotation: the next key was published ahead, the old key stays published, new id_tokens use the new key")
    func rotation() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let before = try await Self.publishedKeyIDs(client)
            let oldActive = server.provider.keyRing.activeKeyID.rawValue
            #expect(before.count == 2)
            #expect(before.contains(oldActive))
            let oldToken = try #require(
                try await RP.authorize(client, RP.Order(responseType: "code id_token", responseMode: "form_post"))["id_token"])
            #expect(try RP.segment(oldToken, 0) == #"{"kid":"\#(oldActive)","alg":"RS256"}"#)

            server.clock.advance(by: 60)
            try await server.provider.rotateSigningKeys()
            let newActive = server.provider.keyRing.activeKeyID.rawValue
            #expect(newActive != oldActive)
            #expect(before.contains(newActive))

            let after = try await Self.publishedKeyIDs(client)
            #expect(after.count == 3)
            #expect(after.contains(oldActive))
            #expect(after.contains(newActive))
            #expect(Set(after).isSuperset(of: before))

            let newToken = try #require(
                try await RP.authorize(client, RP.Order(responseType: "code id_token", responseMode: "form_post"))["id_token"])
            #expect(try RP.segment(newToken, 0) == #"{"kid":"\#(newActive)","alg":"RS256"}"#)
            // Both verify against the published keys.
            _ = try await RP.verify(newToken, client)
            _ = try await RP.verify(oldToken, client)
        }
    }

    @Test("the sign-in page may not be framed")
    func securityHeaders() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let response = try await client.execute(uri: WebFlowTests.authorizeURI(), method: .get)
            #expect(response.status == .ok)
            #expect(response.text.contains("Sign in with Apple ID"))
            #expect(response.headers[.init("X-Frame-Options")!] == "DENY")
            #expect(response.headers[.init("X-Content-Type-Options")!] == "nosniff")
            let policy = try #require(response.headers[.contentSecurityPolicy])
            #expect(policy.contains("frame-ancestors 'none'"))
            #expect(response.headers[.cacheControl] == "no-store")
        }
    }

    @Test("error pages and token answers carry the anti-framing headers too")
    func securityHeadersEverywhere() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let page = try await client.execute(uri: "/auth/authorize", method: .get)
            #expect(page.status == .badRequest)
            #expect(page.headers[.init("X-Frame-Options")!] == "DENY")
            #expect(page.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
            let token = try await RP.post(client, "/auth/token", [("grant_type", "authorization_code")])
            #expect(token.headers[.init("X-Frame-Options")!] == "DENY")
        }
    }

    @Test(
        "the admin API needs the admin bearer token",
        arguments: [nil, "Bearer wrong-token", "Bearer ", "Basic dGVzdC1hZG1pbi10b2tlbg==", "test-admin-token"])
    func adminGuard(authorization: String?) async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            var headers: HTTPFields = [.contentType: "application/json"]
            if let authorization { headers[.authorization] = authorization }
            let body = try JSONEncoder().encode(RP.Order())
            let response = try await client.execute(uri: "/admin/authorizations", method: .post, headers: headers, body: ByteBuffer(bytes: body))
            #expect(response.status == .unauthorized)
            #expect(response.headers[.wwwAuthenticate] == "Bearer")
            #expect(try response.jsonStrings() == ["error": "unauthorized"])

            // The same request with the right token is served.
            headers[.authorization] = "Bearer \(TestServer.adminToken)"
            let allowed = try await client.execute(uri: "/admin/authorizations", method: .post, headers: headers, body: ByteBuffer(bytes: body))
            #expect(allowed.status == .ok)
            #expect(allowed.text.contains(#""code":"c"#))
        }
    }
}
