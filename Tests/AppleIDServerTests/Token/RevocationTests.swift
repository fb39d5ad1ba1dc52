import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

@Suite("/auth/revoke: tokens, the whole authorization and the consent")
struct RevocationTests {
    static let revokedToken = ["error": "invalid_grant", "error_description": "The token has expired or has been revoked."]

    /// A first authorization asking for name and e-mail, delivered by form_post, through the headless `/auth/authorize`.
    static func authorizeWithUserData(_ client: any TestClientProtocol, state: String) async throws -> [String: String] {
        let query = Form.encode([
            ("client_id", TestServer.servicesID.rawValue), ("redirect_uri", TestServer.redirectURI), ("response_type", "code"),
            ("response_mode", "form_post"), ("scope", "name email"), ("state", state),
        ])
        let response = try await client.execute(uri: "/auth/authorize?" + query, method: .get)
        #expect(response.status == .ok)
        #expect(HTML.formAction(response.text) == TestServer.redirectURI)
        return HTML.hiddenInputs(response.text)
    }

    /// Redeems a fresh code: the access and refresh token of one grant.
    static func tokens(
        _ client: any TestClientProtocol, server: TestServer, clientID: ClientID = TestServer.servicesID
    ) async throws
        -> TokenResponse
    {
        let code = try await RP.code(client, RP.Order(clientID: clientID.rawValue))
        let response = try await RP.redeem(client, code: code, secret: try await server.clientSecret(for: clientID), clientID: clientID)
        #expect(response.status == .ok)
        return try response.tokens()
    }

    @Test("revoking a refresh token: 200 with an empty body, then the refresh token and the grant's access token are dead, and consent is gone")
    func revokeRefreshToken() async throws {
        let server = try await TestServer.make(autoApprove: TestServer.maria.appleID)
        try await server.app.test(.router) { client in
            let secret = try await server.clientSecret()
            let first = try await Self.authorizeWithUserData(client, state: "s1")
            let user = try AuthorizedUser(jsonString: try #require(first["user"]))
            #expect(user == AuthorizedUser(name: .init(firstName: "Maria", lastName: "Ruiz"), email: TestServer.maria.email))

            let redeemed = try await RP.redeem(client, code: try #require(first["code"]), secret: secret)
            #expect(redeemed.status == .ok)
            let tokens = try redeemed.tokens()
            let refreshToken = try #require(tokens.refreshToken)

            let revoked = try await RP.revoke(client, token: refreshToken, hint: "refresh_token", secret: secret)
            #expect(revoked.status == .ok)
            #expect(revoked.body.readableBytes == 0)
            #expect(revoked.headers[.cacheControl] == "no-store")

            let refreshed = try await RP.refresh(client, refreshToken: refreshToken, secret: secret)
            #expect(refreshed.status == .badRequest)
            #expect(try refreshed.jsonStrings() == Self.revokedToken)

            // The access token of the same grant is revoked too; revoking it again is still a 200.
            let again = try await RP.revoke(client, token: tokens.accessToken, hint: "access_token", secret: secret)
            #expect(again.status == .ok)
            #expect(again.body.readableBytes == 0)

            // The consent went with it: the next authorization is a first authorization again.
            let next = try await Self.authorizeWithUserData(client, state: "s2")
            #expect(next["state"] == "s2")
            #expect(next["code"] != nil)
            let userAgain = try AuthorizedUser(jsonString: try #require(next["user"]))
            #expect(userAgain == user)
        }
    }

    @Test("revoking an access token revokes the refresh token of the same grant")
    func revokeAccessToken() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let secret = try await server.clientSecret()
            let tokens = try await Self.tokens(client, server: server)
            let revoked = try await RP.revoke(client, token: tokens.accessToken, secret: secret)
            #expect(revoked.status == .ok)
            let refreshed = try await RP.refresh(client, refreshToken: try #require(tokens.refreshToken), secret: secret)
            #expect(try refreshed.jsonStrings() == Self.revokedToken)
        }
    }

    @Test("without a revoke, a second authorization carries no user field")
    func noUserOnSecondAuthorization() async throws {
        let server = try await TestServer.make(autoApprove: TestServer.maria.appleID)
        try await server.app.test(.router) { client in
            let first = try await Self.authorizeWithUserData(client, state: "s1")
            #expect(first["user"] != nil)
            let second = try await Self.authorizeWithUserData(client, state: "s2")
            #expect(Set(second.keys) == ["code", "state"])
            #expect(second["state"] == "s2")
        }
    }

    @Test("revoking an unknown token is a 200 (RFC 7009 §2.2)", arguments: [nil, "refresh_token", "access_token"])
    func unknownToken(hint: String?) async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let response = try await RP.revoke(
                client, token: "r0123456789abcdef0123456789abcdef.0.abcd.AAAAAAAAAAAAAAAAAAAAAA", hint: hint,
                secret: try await server.clientSecret())
            #expect(response.status == .ok)
            #expect(response.body.readableBytes == 0)
        }
    }

    enum TokenKind: String, Sendable, CaseIterable {
        case refresh, access
    }

    struct RefusalCase: Sendable, CustomTestStringConvertible {
        let name: String
        let error: String
        let token: TokenKind?
        let hint: String?
        let asOtherClient: Bool
        let badSecret: Bool
        var testDescription: String { name }

        init(_ name: String, _ error: String, token: TokenKind?, hint: String? = nil, asOtherClient: Bool = false, badSecret: Bool = false) {
            self.name = name
            self.error = error
            self.token = token
            self.hint = hint
            self.asOtherClient = asOtherClient
            self.badSecret = badSecret
        }
    }

    static let refusals: [RefusalCase] = [
        RefusalCase("token_type_hint bogus", "invalid_request", token: .refresh, hint: "bogus"),
        RefusalCase("hint access_token for a refresh token", "invalid_request", token: .refresh, hint: "access_token"),
        RefusalCase("hint refresh_token for an access token", "invalid_request", token: .access, hint: "refresh_token"),
        RefusalCase("another client's refresh token", "invalid_request", token: .refresh, asOtherClient: true),
        RefusalCase("another client's access token", "invalid_request", token: .access, asOtherClient: true),
        RefusalCase("token missing", "invalid_request", token: nil),
        RefusalCase("a bad client secret", "invalid_client", token: .refresh, badSecret: true),
    ]

    @Test("a refused revocation is a 400 with Apple's JSON error and revokes nothing", arguments: refusals)
    func refused(_ testCase: RefusalCase) async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let tokens = try await Self.tokens(client, server: server)
            let refreshToken = try #require(tokens.refreshToken)
            let token: String? =
                switch testCase.token {
                case .refresh: refreshToken
                case .access: tokens.accessToken
                case nil: nil
                }
            let clientID = testCase.asOtherClient ? TestServer.otherServicesID : TestServer.servicesID
            let secret =
                testCase.badSecret
                ? try await Secrets.es256(pem: Fixtures.otherDeveloperKey)
                : try await server.clientSecret(for: clientID)
            let response = try await RP.revoke(client, token: token, hint: testCase.hint, secret: secret, clientID: clientID)
            #expect(response.status == .badRequest)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(try response.jsonStrings() == ["error": testCase.error])

            let stillAlive = try await RP.refresh(client, refreshToken: refreshToken, secret: try await server.clientSecret())
            #expect(stillAlive.status == .ok)
        }
    }
}
