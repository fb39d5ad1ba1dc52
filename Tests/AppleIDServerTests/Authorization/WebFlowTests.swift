import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import ServerTestSupport
import Testing

@Suite("Web flow, through the pages")
struct WebFlowTests {
    static func authorizeURI(state: String = "state-1", nonce: String = "nonce-1", scope: String = "name email") -> String {
        "/auth/authorize?"
            + Form.encode([
                ("client_id", TestServer.servicesID.rawValue), ("redirect_uri", TestServer.redirectURI),
                ("response_type", "code id_token"), ("response_mode", "form_post"), ("scope", scope), ("state", state), ("nonce", nonce),
            ])
    }

    /// Drives sign-in and two-factor up to the consent page; returns the form's action and CSRF token.
    static func signInUntilConsent(_ browser: Browser, server: TestServer) async throws -> (action: String, csrf: String) {
        let signIn = try await browser.get(authorizeURI())
        #expect(signIn.status == .ok)
        #expect(signIn.text.contains("Sign in with Apple ID"))
        #expect(signIn.headers[.init("X-Frame-Options")!] == "DENY")
        let page = HTML.hiddenInputs(signIn.text)
        let action = try #require(HTML.formAction(signIn.text))
        let csrf = try #require(page["csrf"])

        let twoFactor = try await browser.post(
            action, form: [("csrf", csrf), ("action", "sign-in"), ("apple_id", TestServer.maria.appleID), ("password", TestServer.maria.password)])
        #expect(twoFactor.text.contains("Two-Factor Authentication"))
        let code = try #require(HTML.element(id: "development-code", in: twoFactor.text))
        let account = try #require(try await server.provider.lookUpAccount(appleID: TestServer.maria.appleID))
        #expect(code == server.provider.currentSecondFactorCode(for: account))

        let consent = try await browser.post(action, form: [("csrf", csrf), ("action", "verify"), ("code", code)])
        #expect(consent.text.contains("Create an account for Juice"))
        #expect(browser.cookies["siwa_session"] != nil)
        return (action, csrf)
    }

    /// Drives sign-in, two-factor and consent; returns the auto-submitted form's fields.
    static func signInAndConsent(_ browser: Browser, server: TestServer, hideEmail: Bool) async throws -> [String: String] {
        let (action, csrf) = try await signInUntilConsent(browser, server: server)
        let result = try await browser.post(
            action,
            form: [("csrf", csrf), ("action", "approve"), ("first_name", "Maria"), ("last_name", "R."), ("email", hideEmail ? "hide" : "share")])
        #expect(result.status == .ok)
        #expect(HTML.formAction(result.text) == TestServer.redirectURI)
        return HTML.hiddenInputs(result.text)
    }

    @Test("authorize → sign-in → two-factor → consent → token, id_token verified against /auth/keys")
    func fullFlow() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let fields = try await Self.signInAndConsent(browser, server: server, hideEmail: true)
            #expect(fields["state"] == "state-1")
            let code = try #require(fields["code"])
            let frontChannelToken = try #require(fields["id_token"])
            let user = try AuthorizedUser(jsonString: try #require(fields["user"]))
            #expect(user.name == .init(firstName: "Maria", lastName: "R."))
            let relay = try #require(user.email)
            #expect(relay.hasSuffix("@privaterelay.appleid.com"))

            let secret = try await server.clientSecret()
            let tokenResponse = try await client.execute(
                uri: "/auth/token", method: .post, headers: Form.headers,
                body: ByteBuffer(
                    string: Form.encode([
                        ("client_id", TestServer.servicesID.rawValue), ("client_secret", secret), ("code", code),
                        ("grant_type", "authorization_code"), ("redirect_uri", TestServer.redirectURI),
                    ])))
            #expect(tokenResponse.status == .ok)
            #expect(tokenResponse.headers[.cacheControl] == "no-store")
            #expect(tokenResponse.headers[.init("Pragma")!] == "no-cache")
            let tokens = try JSONDecoder().decode(TokenResponse.self, from: Data(buffer: tokenResponse.body))
            #expect(tokens.tokenType == "Bearer")
            #expect(tokens.expiresIn == 3600)
            #expect(tokens.refreshToken?.hasPrefix("r") == true)
            #expect(tokens.accessToken.hasPrefix("a"))

            let keys = JWTKeyCollection()
            let jwks = try await client.execute(uri: "/auth/keys", method: .get)
            try await keys.add(jwksJSON: jwks.text)
            let idToken = try #require(tokens.idToken)
            let claims = try await keys.verify(idToken, as: IdentityTokenClaims.self)
            #expect(claims.issuer == TestServer.issuer)
            #expect(claims.audience == TestServer.servicesID.rawValue)
            #expect(claims.nonce == "nonce-1")
            #expect(claims.nonceSupported == true)
            #expect(claims.email == relay)
            #expect(claims.emailVerified == BooleanClaim(true, style: .boolean))
            #expect(claims.isPrivateEmail == BooleanClaim(true, style: .boolean))
            #expect(claims.accessTokenHash == TokenHash.of(tokens.accessToken))
            #expect(claims.realUserStatus == RealUserStatus.likelyReal.rawValue)
            #expect(claims.expiresAt - claims.issuedAt == 86_400)
            #expect(claims.issuedAt == Int(Fixtures.now.timeIntervalSince1970))
            #expect(claims.subject.rawValue.wholeMatch(of: #/[0-9]{6}\.[0-9a-f]{32}\.[0-9]{4}/#) != nil)

            let front = try await keys.verify(frontChannelToken, as: IdentityTokenClaims.self)
            #expect(front.codeHash == TokenHash.of(code))
            #expect(front.subject == claims.subject)

            let header = try #require(idToken.split(separator: ".").first)
            #expect(
                String(decoding: try Base64URL.decode(String(header)), as: UTF8.self)
                    == #"{"kid":"\#(server.provider.keyRing.activeKeyID)","alg":"RS256"}"#)
            let payload = String(decoding: try Base64URL.decode(String(idToken.split(separator: ".")[1])), as: UTF8.self)
            #expect(payload.hasPrefix(#"{"iss":"http://127.0.0.1:8080","aud":"com.example.juice.web","exp":"#))
        }
    }

    @Test("a later authorization in the same browser gets the Continue page and no user JSON")
    func laterAuthorization() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let first = try await Self.signInAndConsent(browser, server: server, hideEmail: false)
            #expect(try AuthorizedUser(jsonString: try #require(first["user"])).email == TestServer.maria.email)

            let again = try await browser.get(Self.authorizeURI(state: "state-2"))
            #expect(again.text.contains("Continue to Juice?"))
            let csrf = try #require(HTML.hiddenInputs(again.text)["csrf"])
            let result = try await browser.post(try #require(HTML.formAction(again.text)), form: [("csrf", csrf), ("action", "approve")])
            let fields = HTML.hiddenInputs(result.text)
            #expect(fields["code"] != nil)
            #expect(fields["state"] == "state-2")
            #expect(fields["user"] == nil)
        }
    }

    @Test("Cancel sends user_cancelled_authorize with state to the redirect URI")
    func cancel() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let page = try await browser.get(Self.authorizeURI(state: "s-cancel"))
            let csrf = try #require(HTML.hiddenInputs(page.text)["csrf"])
            let result = try await browser.post(try #require(HTML.formAction(page.text)), form: [("csrf", csrf), ("action", "cancel")])
            let fields = HTML.hiddenInputs(result.text)
            #expect(fields == ["error": "user_cancelled_authorize", "state": "s-cancel"])
        }
    }

    @Test("a form post with a wrong CSRF token or from another browser is refused")
    func csrf() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let page = try await browser.get(Self.authorizeURI())
            let action = try #require(HTML.formAction(page.text))
            let csrf = try #require(HTML.hiddenInputs(page.text)["csrf"])
            let forged = try await browser.post(
                action,
                form: [("csrf", "0000"), ("action", "sign-in"), ("apple_id", TestServer.maria.appleID), ("password", TestServer.maria.password)])
            #expect(forged.status == .badRequest)
            let otherBrowser = Browser(client)
            let stolen = try await otherBrowser.post(
                action,
                form: [("csrf", csrf), ("action", "sign-in"), ("apple_id", TestServer.maria.appleID), ("password", TestServer.maria.password)])
            #expect(stolen.status == .badRequest)
        }
    }

    @Test("a wrong password is refused with a message and five failures end the sign-in")
    func wrongPassword() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let page = try await browser.get(Self.authorizeURI())
            let action = try #require(HTML.formAction(page.text))
            let csrf = try #require(HTML.hiddenInputs(page.text)["csrf"])
            for attempt in 1...5 {
                let response = try await browser.post(
                    action, form: [("csrf", csrf), ("action", "sign-in"), ("apple_id", TestServer.maria.appleID), ("password", "wrong")])
                if attempt < 5 {
                    #expect(response.status == .unauthorized)
                    #expect(response.text.contains("Your Apple ID or password was incorrect."))
                } else {
                    #expect(response.status == .badRequest)
                    #expect(response.text.contains("Too many failed attempts"))
                }
            }
        }
    }
}
