import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import ServerTestSupport
import Testing

@Suite("/auth/token: grants, single-use codes, bindings, request shape and client secrets")
struct TokenEndpointTests {
    static let web = TestServer.servicesID
    static let expiredOrRevoked = ["error": "invalid_grant", "error_description": "The code has expired or has been revoked."]

    // MARK: Refresh grant

    @Test("the refresh grant answers a new access token and an id_token without nonce, auth_time, nonce_supported or refresh_token")
    func refreshGrant() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let code = try await RP.code(
                client, RP.Order(responseType: "code id_token", responseMode: "form_post", scope: "name email", nonce: "nonce-r"))
            let first = try await RP.redeem(client, code: code, secret: try await server.clientSecret())
            #expect(first.status == .ok)
            let firstTokens = try first.tokens()
            let refreshToken = try #require(firstTokens.refreshToken)
            let firstClaims = try await RP.verify(try #require(firstTokens.idToken), client)
            #expect(firstClaims.nonce == "nonce-r")

            server.clock.advance(by: 600)
            let response = try await RP.refresh(client, refreshToken: refreshToken, secret: try await server.clientSecret())
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(response.headers[.contentType] == "application/json;charset=UTF-8")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            #expect(Set(json.keys) == ["access_token", "token_type", "expires_in", "id_token"])
            let tokens = try response.tokens()
            #expect(tokens.refreshToken == nil)
            #expect(tokens.tokenType == "Bearer")
            #expect(tokens.expiresIn == 3600)
            #expect(tokens.accessToken.hasPrefix("a"))
            #expect(tokens.accessToken != firstTokens.accessToken)

            let idToken = try #require(tokens.idToken)
            let claims = try await RP.verify(idToken, client)
            #expect(claims.nonce == nil)
            #expect(claims.authTime == nil)
            #expect(claims.nonceSupported == nil)
            #expect(claims.codeHash == nil)
            #expect(claims.accessTokenHash == TokenHash.of(tokens.accessToken))
            #expect(claims.subject == firstClaims.subject)
            #expect(claims.audience == Self.web.rawValue)
            #expect(claims.issuer == TestServer.issuer)
            #expect(claims.email == TestServer.maria.email)
            #expect(claims.issuedAt == Int(Fixtures.now.timeIntervalSince1970) + 600)
            let payload = try RP.segment(idToken, 1)
            #expect(!payload.contains("\"nonce"))
            #expect(!payload.contains("\"auth_time\""))
        }
    }

    @Test("a refresh token works only for the client it was issued to")
    func refreshOtherClient() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let code = try await RP.code(client)
            let tokens = try await RP.redeem(client, code: code, secret: try await server.clientSecret()).tokens()
            let refreshToken = try #require(tokens.refreshToken)
            let other = try await RP.refresh(
                client, refreshToken: refreshToken, secret: try await server.clientSecret(for: TestServer.otherServicesID),
                clientID: TestServer.otherServicesID)
            #expect(other.status == .badRequest)
            #expect(try other.jsonStrings() == ["error": "invalid_grant", "error_description": "The token has expired or has been revoked."])
            // An access token is not a refresh token.
            let swapped = try await RP.refresh(client, refreshToken: tokens.accessToken, secret: try await server.clientSecret())
            #expect(try swapped.jsonStrings()["error"] == "invalid_grant")
        }
    }

    @Test("token and error answers keep Apple's member order on the wire")
    func wireMemberOrder() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let code = try await RP.code(client)
            let secret = try await server.clientSecret()
            let first = try await RP.redeem(client, code: code, secret: secret)
            #expect(
                first.text.wholeMatch(
                    of: #/\{"access_token":"a[^"]+","token_type":"Bearer","expires_in":3600,"refresh_token":"r[^"]+","id_token":"[^"]+"\}/#)
                    != nil, "\(first.text)")
            let second = try await RP.redeem(client, code: code, secret: secret)
            #expect(second.text == #"{"error":"invalid_grant","error_description":"The code has already been used."}"#)
        }
    }

    // MARK: Single use

    @Test("a code redeemed twice is refused and the tokens of its first redemption are revoked")
    func codeReuse() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let code = try await RP.code(client)
            let secret = try await server.clientSecret()
            let first = try await RP.redeem(client, code: code, secret: secret)
            #expect(first.status == .ok)
            let refreshToken = try #require(try first.tokens().refreshToken)

            let second = try await RP.redeem(client, code: code, secret: secret)
            #expect(second.status == .badRequest)
            #expect(second.headers[.cacheControl] == "no-store")
            #expect(try second.jsonStrings() == ["error": "invalid_grant", "error_description": "The code has already been used."])

            let refreshed = try await RP.refresh(client, refreshToken: refreshToken, secret: secret)
            #expect(refreshed.status == .badRequest)
            #expect(try refreshed.jsonStrings() == ["error": "invalid_grant", "error_description": "The token has expired or has been revoked."])
        }
    }

    /// One outcome of a concurrent redemption: the status, the refresh token of a 200, the JSON error of a refusal.
    struct Outcome: Sendable {
        var status: UInt
        var refreshToken: String?
        var error: [String: String]?
    }

    @Test(
        "50 concurrent redemptions of one code: exactly one succeeds, 49 are invalid_grant, and the winner's tokens end up revoked"
    )
    func concurrentRedemptions() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let secret = try await server.clientSecret()
            // Several rounds, one fresh code each, so that an interleaving bug shows up in (almost) every run.
            for round in 1...20 {
                let code = try await RP.code(client)
                let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
                    for _ in 0..<50 {
                        group.addTask {
                            let response = try await RP.redeem(client, code: code, secret: secret)
                            return response.status == .ok
                                ? Outcome(status: 200, refreshToken: try response.tokens().refreshToken)
                                : Outcome(status: UInt(response.status.code), error: try response.jsonStrings())
                        }
                    }
                    var outcomes: [Outcome] = []
                    for try await outcome in group { outcomes.append(outcome) }
                    return outcomes
                }
                #expect(outcomes.count == 50, "round \(round)")
                let winners = outcomes.filter { $0.status == 200 }
                #expect(winners.count == 1, "round \(round)")
                let refused = outcomes.filter { $0.status != 200 }
                #expect(refused.count == 49, "round \(round)")
                #expect(
                    refused.allSatisfy {
                        $0.status == 400 && $0.error == ["error": "invalid_grant", "error_description": "The code has already been used."]
                    },
                    "round \(round)")
                // The replays revoked what the code issued (RFC 6749 §4.1.2).
                if let refreshToken = winners.first?.refreshToken {
                    let refreshed = try await RP.refresh(client, refreshToken: refreshToken, secret: secret)
                    #expect(try refreshed.jsonStrings()["error"] == "invalid_grant", "round \(round)")
                }
            }
        }
    }

    // MARK: Expiry and unknown codes

    @Test("a code lives five minutes", arguments: [(299.0, true), (300.0, false), (301.0, false)])
    func codeLifetime(after seconds: Double, accepted: Bool) async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let code = try await RP.code(client)
            server.clock.advance(by: seconds)
            let response = try await RP.redeem(client, code: code, secret: try await server.clientSecret())
            if accepted {
                #expect(response.status == .ok)
            } else {
                #expect(response.status == .badRequest)
                #expect(try response.jsonStrings() == Self.expiredOrRevoked)
            }
        }
    }

    @Test("an unknown code is invalid_grant with Apple's expired-or-revoked description")
    func unknownCode() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let response = try await RP.redeem(
                client, code: "c0123456789abcdef0123456789abcdef.0.abcd.AAAAAAAAAAAAAAAAAAAAAA", secret: try await server.clientSecret())
            #expect(response.status == .badRequest)
            #expect(try response.jsonStrings() == Self.expiredOrRevoked)
        }
    }

    // MARK: What a code is bound to

    @Test("a code redeemed with another registered redirect_uri is a redirect_uri mismatch")
    func redirectURIMismatch() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let code = try await RP.code(client)
            let response = try await RP.redeem(
                client, code: code, secret: try await server.clientSecret(), redirectURI: TestServer.secondRedirectURI)
            #expect(response.status == .badRequest)
            #expect(
                try response.jsonStrings() == [
                    "error": "invalid_grant",
                    "error_description": "redirect_uri mismatch. The code was not issued to https://juice.example.com/auth/callback/.",
                ])
        }
    }

    @Test("a web code redeemed without redirect_uri is invalid_grant")
    func missingRedirectURI() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let code = try await RP.code(client)
            let response = try await RP.redeem(client, code: code, secret: try await server.clientSecret(), redirectURI: nil)
            #expect(response.status == .badRequest)
            #expect(try response.jsonStrings()["error"] == "invalid_grant")
        }
    }

    @Test("a code issued to one Services ID is refused to another of the same group with its own valid secret")
    func clientIDMismatch() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let code = try await RP.code(client)
            let response = try await RP.redeem(
                client, code: code, secret: try await server.clientSecret(for: TestServer.otherServicesID),
                clientID: TestServer.otherServicesID)
            #expect(response.status == .badRequest)
            #expect(
                try response.jsonStrings() == [
                    "error": "invalid_grant", "error_description": "client_id mismatch. The code was not issued to com.example.juice.other.",
                ])
        }
    }

    // MARK: PKCE

    struct PKCECase: Sendable, CustomTestStringConvertible {
        let name: String
        let challenge: Bool
        let verifier: String?
        let accepted: Bool
        var testDescription: String { name }
    }

    /// RFC 7636 appendix B.
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"

    static let pkceCases: [PKCECase] = [
        PKCECase(name: "right verifier", challenge: true, verifier: verifier, accepted: true),
        PKCECase(name: "wrong verifier", challenge: true, verifier: "wrong-" + verifier, accepted: false),
        PKCECase(name: "verifier missing", challenge: true, verifier: nil, accepted: false),
        PKCECase(name: "verifier without a challenge", challenge: false, verifier: verifier, accepted: false),
        PKCECase(name: "neither", challenge: false, verifier: nil, accepted: true),
    ]

    @Test("PKCE S256: the code redeems only with the verifier of its challenge", arguments: pkceCases)
    func pkce(_ testCase: PKCECase) async throws {
        let challenge = TokenHash.pkceChallenge(forVerifier: Self.verifier)
        #expect(challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let order =
                testCase.challenge ? RP.Order(codeChallenge: challenge, codeChallengeMethod: "S256") : RP.Order()
            let code = try await RP.code(client, order)
            let response = try await RP.redeem(client, code: code, secret: try await server.clientSecret(), verifier: testCase.verifier)
            if testCase.accepted {
                #expect(response.status == .ok)
            } else {
                #expect(response.status == .badRequest)
                #expect(try response.jsonStrings() == Self.expiredOrRevoked)
            }
        }
    }

    // MARK: Request shape

    struct ShapeCase: Sendable, CustomTestStringConvertible {
        let name: String
        /// The body; `{secret}` is replaced by a valid client secret for the web Services ID.
        let body: String
        let contentType: String?
        let error: String
        var testDescription: String { name }

        init(_ name: String, body: String, contentType: String? = "application/x-www-form-urlencoded", _ error: String) {
            self.name = name
            self.body = body
            self.contentType = contentType
            self.error = error
        }

        init(_ name: String, _ fields: [(String, String)], _ error: String) {
            self.init(name, body: Form.encode(fields), error)
        }
    }

    static let client: [(String, String)] = [("client_id", web.rawValue), ("client_secret", "{secret}")]
    static let codeGrant: [(String, String)] = [
        ("grant_type", "authorization_code"), ("code", "c0123456789abcdef0123456789abcdef.0.abcd.AAAAAAAAAAAAAAAAAAAAAA"),
        ("redirect_uri", TestServer.redirectURI),
    ]

    static let shapeCases: [ShapeCase] = [
        ShapeCase(
            "a JSON body", body: #"{"grant_type":"authorization_code","client_id":"com.example.juice.web","client_secret":"{secret}"}"#,
            contentType: "application/json", "invalid_request"),
        ShapeCase("no content type", body: Form.encode(client + codeGrant), contentType: nil, "invalid_request"),
        ShapeCase("grant_type missing", client + [("code", "c1"), ("redirect_uri", TestServer.redirectURI)], "invalid_request"),
        ShapeCase("grant_type password", client + [("grant_type", "password"), ("username", "maria"), ("password", "x")], "unsupported_grant_type"),
        ShapeCase(
            "grant_type client_credentials without a transfer", client + [("grant_type", "client_credentials"), ("scope", "user.migration")],
            "unauthorized_client"),
        ShapeCase("code twice", body: Form.encode(client + codeGrant) + "&code=c2", "invalid_request"),
        ShapeCase("malformed percent-encoding in a value", body: Form.encode(client + codeGrant) + "&state=%ZZ", "invalid_request"),
        ShapeCase("malformed percent-encoding in a name", body: Form.encode(client + codeGrant) + "&%ZZ=1", "invalid_request"),
        ShapeCase("a truncated percent-escape", body: Form.encode(client + codeGrant) + "&state=%", "invalid_request"),
        ShapeCase("code sent as an array", body: Form.encode(client + codeGrant) + "&code%5B%5D=x", "invalid_request"),
        ShapeCase("a body over 64 KiB", client + codeGrant + [("padding", String(repeating: "a", count: 70_000))], "invalid_request"),
        ShapeCase("client_id missing", [("client_secret", "{secret}")] + codeGrant, "invalid_request"),
        ShapeCase("client_secret missing", [("client_id", web.rawValue)] + codeGrant, "invalid_client"),
        ShapeCase("client_secret empty", [("client_id", web.rawValue), ("client_secret", "")] + codeGrant, "invalid_client"),
        ShapeCase("client_id unknown", [("client_id", "com.example.unknown"), ("client_secret", "{secret}")] + codeGrant, "invalid_client"),
        ShapeCase("refresh grant without refresh_token", client + [("grant_type", "refresh_token")], "invalid_request"),
        ShapeCase(
            "code grant without code", client + [("grant_type", "authorization_code"), ("redirect_uri", TestServer.redirectURI)], "invalid_request"),
    ]

    @Test("a malformed token request is a 400 with Apple's JSON error and no-store", arguments: shapeCases)
    func requestShape(_ testCase: ShapeCase) async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let secret = try await server.clientSecret()
            var headers: HTTPFields = [:]
            if let contentType = testCase.contentType { headers[.contentType] = contentType }
            let response = try await client.execute(
                uri: "/auth/token", method: .post, headers: headers,
                body: ByteBuffer(
                    string: testCase.body.replacingOccurrences(of: "%7Bsecret%7D", with: secret)
                        .replacingOccurrences(of: "{secret}", with: secret)))
            #expect(response.status == .badRequest)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(response.headers[.init("Pragma")!] == "no-cache")
            #expect(response.headers[.contentType] == "application/json;charset=UTF-8")
            let json = try response.jsonStrings()
            #expect(json == ["error": testCase.error], "\(response.text)")
        }
    }

    // MARK: Client secrets

    struct SecretCase: Sendable, CustomTestStringConvertible {
        let name: String
        let accepted: Bool
        let make: @Sendable () async throws -> String
        var testDescription: String { name }
    }

    static let now = Secrets.nowSeconds

    static let secretCases: [SecretCase] = [
        SecretCase(name: "a garbage string", accepted: false) { "not-a-jwt" },
        SecretCase(name: "two segments", accepted: false) {
            let jwt = try await Secrets.es256()
            return jwt.split(separator: ".").prefix(2).joined(separator: ".")
        },
        SecretCase(name: "alg none, unsigned", accepted: false) {
            try Secrets.raw(header: #"{"alg":"none","kid":"TESTKEY123"}"#)
        },
        SecretCase(name: "ES256 header with the signature stripped", accepted: false) {
            let jwt = try await Secrets.es256()
            return jwt.split(separator: ".").prefix(2).joined(separator: ".") + "."
        },
        SecretCase(name: "HS256 keyed with the registered public key", accepted: false) {
            try await Secrets.hs256(key: try TestServer.publicPEM(Fixtures.developerKey))
        },
        SecretCase(name: "ES256 signed by another key under kid TESTKEY123", accepted: false) {
            try await Secrets.es256(pem: Fixtures.otherDeveloperKey)
        },
        SecretCase(name: "kid of another team's key", accepted: false) {
            try await Secrets.es256(pem: Fixtures.otherDeveloperKey, kid: TestServer.otherKeyID.rawValue)
        },
        SecretCase(name: "unknown kid", accepted: false) { try await Secrets.es256(kid: "UNKNOWN999") },
        SecretCase(name: "no kid", accepted: false) {
            let keys = JWTKeyCollection()
            await keys.add(ecdsa: try ES256PrivateKey(pem: Fixtures.developerKey))
            return try await keys.sign(Secrets.claims())
        },
        SecretCase(name: "iss is not the team", accepted: false) { try await Secrets.es256(Secrets.claims(issuer: "OTHER12345")) },
        SecretCase(name: "sub is not the client_id", accepted: false) {
            try await Secrets.es256(Secrets.claims(subject: TestServer.otherServicesID.rawValue))
        },
        SecretCase(name: "aud is another site", accepted: false) {
            try await Secrets.es256(Secrets.claims(audience: "https://evil.example.com"))
        },
        SecretCase(name: "iat 10 minutes in the future", accepted: false) {
            try await Secrets.es256(Secrets.claims(issuedAt: now + 600))
        },
        SecretCase(name: "iat 61 s in the future", accepted: false) { try await Secrets.es256(Secrets.claims(issuedAt: now + 61)) },
        SecretCase(name: "exp in the past", accepted: false) {
            try await Secrets.es256(Secrets.claims(issuedAt: now - 400, lifetime: 300))
        },
        SecretCase(name: "exp is now", accepted: false) { try await Secrets.es256(Secrets.claims(issuedAt: now - 300, lifetime: 300)) },
        SecretCase(name: "lifetime 15,777,001 s", accepted: false) {
            try await Secrets.es256(Secrets.claims(lifetime: 15_777_001))
        },
        SecretCase(name: "aud https://appleid.apple.com", accepted: true) {
            try await Secrets.es256(Secrets.claims(audience: "https://appleid.apple.com"))
        },
        SecretCase(name: "lifetime exactly 15,777,000 s", accepted: true) {
            try await Secrets.es256(Secrets.claims(lifetime: 15_777_000))
        },
        SecretCase(name: "iat 30 s in the future (within the 60 s skew)", accepted: true) {
            try await Secrets.es256(Secrets.claims(issuedAt: now + 30))
        },
        SecretCase(name: "iat 60 s in the future (the skew exactly)", accepted: true) {
            try await Secrets.es256(Secrets.claims(issuedAt: now + 60))
        },
        SecretCase(name: "issued 400 s ago, valid for an hour", accepted: true) {
            try await Secrets.es256(Secrets.claims(issuedAt: now - 400, lifetime: 3600))
        },
    ]

    @Test("each client secret rule: a broken secret is a bare invalid_client, a valid one redeems", arguments: secretCases)
    func clientSecret(_ testCase: SecretCase) async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let code = try await RP.code(client)
            let response = try await RP.redeem(client, code: code, secret: try await testCase.make())
            if testCase.accepted {
                #expect(response.status == .ok, "\(response.text)")
                #expect(try response.tokens().refreshToken != nil)
            } else {
                #expect(response.status == .badRequest)
                #expect(response.headers[.cacheControl] == "no-store")
                #expect(response.text == #"{"error":"invalid_client"}"#)
                // The code was not spent on a client that failed to authenticate.
                let retry = try await RP.redeem(client, code: code, secret: try await server.clientSecret())
                #expect(retry.status == .ok)
            }
        }
    }

    @Test("a secret that verified once stops working when it expires")
    func cachedSecretExpires() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let secret = try await server.clientSecret(lifetime: 300)
            #expect(try await RP.redeem(client, code: try await RP.code(client), secret: secret).status == .ok)
            server.clock.advance(by: 300)
            let late = try await RP.redeem(client, code: try await RP.code(client), secret: secret)
            #expect(late.status == .badRequest)
            #expect(late.text == #"{"error":"invalid_client"}"#)
        }
    }

    @Test("a secret that verified for one client is not accepted for another")
    func cachedSecretIsPerClient() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let secret = try await server.clientSecret()
            #expect(try await RP.redeem(client, code: try await RP.code(client), secret: secret).status == .ok)
            let otherCode = try await RP.code(client, RP.Order(clientID: TestServer.otherServicesID.rawValue))
            let response = try await RP.redeem(client, code: otherCode, secret: secret, clientID: TestServer.otherServicesID)
            #expect(response.text == #"{"error":"invalid_client"}"#)
        }
    }
}
