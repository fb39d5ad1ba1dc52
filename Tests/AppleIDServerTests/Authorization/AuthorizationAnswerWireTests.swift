import AppleIDProtocol
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The engine answers typed; only the delivery writes wire parameters. These hold the delivery to
/// Apple's order and values (spec §3.3), through the router.
@Suite("/auth/authorize: the delivery writes the typed answer in Apple's order")
struct AuthorizationAnswerWireTests {
    static func query(_ fields: [(String, String)]) -> String {
        "/auth/authorize?"
            + Form.encode(
                [("client_id", TestServer.servicesID.rawValue), ("redirect_uri", TestServer.redirectURI)] + fields)
    }

    @Test("a first form_post authorization posts code, id_token, state and user, in that order; user is the shared name and e-mail")
    func firstFormPost() async throws {
        let server = try await TestServer.make(autoApprove: TestServer.maria.appleID)
        try await server.app.test(.router) { client in
            let uri = Self.query([
                ("response_type", "code id_token"), ("response_mode", "form_post"), ("scope", "name email"), ("state", "s 1&2"),
                ("nonce", "n-1"),
            ])
            let page = try await client.execute(uri: uri, method: .get)
            #expect(page.status == .ok)
            #expect(HTML.formAction(page.text) == TestServer.redirectURI)
            let fields = HTML.hiddenInputList(page.text)
            #expect(fields.map(\.name) == ["code", "id_token", "state", "user"])
            #expect(fields[2].value == "s 1&2")
            let user = try AuthorizedUser(jsonString: fields[3].value)
            #expect(user.email == TestServer.maria.email)
            #expect(user.name != nil)
            let claims = try await RP.verify(fields[1].value, client)
            #expect(claims.codeHash == TokenHash.of(fields[0].value))
            #expect(claims.nonce == "n-1")
        }
    }

    @Test("a later form_post authorization has no user; a refusal after the redirect URI is proven posts error and state only")
    func laterAndRefused() async throws {
        let server = try await TestServer.make(autoApprove: TestServer.maria.appleID)
        try await server.app.test(.router) { client in
            let fields: [(String, String)] = [("response_type", "code"), ("response_mode", "form_post"), ("scope", "email"), ("state", "s2")]
            _ = try await client.execute(uri: Self.query(fields), method: .get)
            let later = try await client.execute(uri: Self.query(fields), method: .get)
            #expect(HTML.hiddenInputList(later.text).map(\.name) == ["code", "state"])

            let refused = try await client.execute(
                uri: Self.query([("response_type", "code"), ("response_mode", "form_post"), ("scope", "bogus"), ("state", "s3")]), method: .get)
            let refusal = HTML.hiddenInputList(refused.text)
            #expect(refusal.map(\.name) == ["error", "state"])
            #expect(refusal.map(\.value) == ["invalid_scope", "s3"])
        }
    }
}
