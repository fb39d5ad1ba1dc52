import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("/auth/authorize: errors are a page until client and redirect URI are proven, then go back to the redirect URI")
struct AuthorizeErrorTests {
    static let web = TestServer.servicesID.rawValue
    static let other = TestServer.otherServicesID.rawValue
    static let callback = TestServer.redirectURI
    /// A state with characters that must be percent-encoded on the way back.
    static let state = "st 42/ä&x=1"

    // MARK: Before the redirect URI is proven: a 400 page, no Location

    struct PageCase: Sendable, CustomTestStringConvertible {
        let name: String
        let query: String
        let error: String
        let errorDescription: String?
        var testDescription: String { name }

        init(_ name: String, _ fields: [(String, String)], _ error: String, _ errorDescription: String? = nil) {
            self.name = name
            self.query = Form.encode(fields)
            self.error = error
            self.errorDescription = errorDescription
        }
    }

    static let invalidRedirect = "Invalid web redirect url."

    static func fields(clientID: String? = web, redirectURI: String? = callback) -> [(String, String)] {
        var fields: [(String, String)] = []
        if let clientID { fields.append(("client_id", clientID)) }
        if let redirectURI { fields.append(("redirect_uri", redirectURI)) }
        return fields + [("response_type", "code"), ("state", state)]
    }

    static let pageCases: [PageCase] = [
        PageCase("missing client_id", fields(clientID: nil), "invalid_request"),
        PageCase("empty client_id", fields(clientID: ""), "invalid_request"),
        PageCase("unknown client_id", fields(clientID: "com.example.unknown"), "invalid_client"),
        PageCase("missing redirect_uri", fields(redirectURI: nil), "invalid_request", invalidRedirect),
        PageCase("unregistered redirect_uri", fields(redirectURI: "https://evil.example.com/auth/callback"), "invalid_request", invalidRedirect),
        PageCase(
            "trailing-slash variant of a URI registered only without it", fields(clientID: other, redirectURI: callback + "/"),
            "invalid_request", invalidRedirect),
        PageCase(
            "host in a different case", fields(redirectURI: "https://JUICE.example.com/auth/callback"), "invalid_request", invalidRedirect),
        PageCase("an extra query", fields(redirectURI: callback + "?next=/admin"), "invalid_request", invalidRedirect),
        PageCase("http instead of https", fields(redirectURI: "http://juice.example.com/auth/callback"), "invalid_request", invalidRedirect),
        PageCase("a fragment appended", fields(redirectURI: callback + "#x"), "invalid_request", invalidRedirect),
        PageCase("client_id twice", [("client_id", web)] + fields(), "invalid_request"),
        PageCase("redirect_uri twice", fields() + [("redirect_uri", callback)], "invalid_request"),
    ]

    @Test("an error before client and redirect URI are proven is a 400 HTML page and never a redirect", arguments: pageCases, [false, true])
    func unprovenErrorIsAPage(_ testCase: PageCase, headless: Bool) async throws {
        let server = try await TestServer.make(autoApprove: headless ? TestServer.maria.appleID : nil)
        try await server.app.test(.router) { client in
            for method in [HTTPRequest.Method.get, .post] {
                let response =
                    method == .get
                    ? try await client.execute(uri: "/auth/authorize?" + testCase.query, method: .get)
                    : try await client.execute(
                        uri: "/auth/authorize", method: .post, headers: Form.headers, body: ByteBuffer(string: testCase.query))
                #expect(response.status == .badRequest, "\(method)")
                #expect(response.headers[.location] == nil, "\(method)")
                #expect(response.headers[.contentType]?.hasPrefix("text/html") == true, "\(method)")
                #expect(HTML.element(id: "error", in: response.text) == testCase.error, "\(method)")
                #expect(HTML.element(id: "error-description", in: response.text) == testCase.errorDescription, "\(method)")
                // No auto-submitting form to anywhere: the error is not delivered by form_post either.
                #expect(HTML.formAction(response.text) == nil, "\(method)")
                #expect(HTML.hiddenInputs(response.text).isEmpty, "\(method)")
            }
        }
    }

    // MARK: After the redirect URI is proven: back to it with error and state

    enum Delivery: String, Sendable {
        case query, fragment, formPost
    }

    struct RedirectCase: Sendable, CustomTestStringConvertible {
        let name: String
        let extra: [(String, String)]
        let error: String
        let delivery: Delivery
        var testDescription: String { name }

        init(_ name: String, _ extra: [(String, String)], _ error: String, _ delivery: Delivery = .query) {
            self.name = name
            self.extra = extra
            self.error = error
            self.delivery = delivery
        }
    }

    static let goodChallenge = TokenHash.pkceChallenge(forVerifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")

    static let redirectCases: [RedirectCase] = [
        RedirectCase("scope name without form_post", [("response_type", "code"), ("scope", "name")], "invalid_request"),
        RedirectCase(
            "scope email with response_mode query", [("response_type", "code"), ("response_mode", "query"), ("scope", "email")],
            "invalid_request"),
        RedirectCase(
            "scope name with response_mode fragment", [("response_type", "code"), ("response_mode", "fragment"), ("scope", "name")],
            "invalid_request", .fragment),
        RedirectCase("missing response_type", [], "invalid_request"),
        RedirectCase("response_type id_token", [("response_type", "id_token")], "unsupported_response_type"),
        RedirectCase("response_type token", [("response_type", "token")], "unsupported_response_type"),
        RedirectCase("response_mode bogus", [("response_type", "code"), ("response_mode", "bogus")], "invalid_request"),
        RedirectCase(
            "code id_token with response_mode query", [("response_type", "code id_token"), ("response_mode", "query")],
            "invalid_request"),
        RedirectCase(
            "scope profile", [("response_type", "code"), ("response_mode", "form_post"), ("scope", "profile")], "invalid_scope",
            .formPost),
        RedirectCase(
            "scope email twice", [("response_type", "code"), ("response_mode", "form_post"), ("scope", "email email")],
            "invalid_scope", .formPost),
        RedirectCase(
            "code_challenge_method plain",
            [("response_type", "code"), ("code_challenge", goodChallenge), ("code_challenge_method", "plain")], "invalid_request"),
        RedirectCase(
            "code_challenge without a method (plain by default)", [("response_type", "code"), ("code_challenge", goodChallenge)],
            "invalid_request"),
        RedirectCase(
            "code_challenge too short",
            [("response_type", "code"), ("code_challenge", String(goodChallenge.dropLast())), ("code_challenge_method", "S256")],
            "invalid_request"),
        RedirectCase(
            "code_challenge_method without code_challenge", [("response_type", "code"), ("code_challenge_method", "S256")],
            "invalid_request"),
    ]

    @Test("an error after the redirect URI is proven goes back to it with exactly error and state", arguments: redirectCases, [false, true])
    func provenErrorIsRedirected(_ testCase: RedirectCase, headless: Bool) async throws {
        let server = try await TestServer.make(autoApprove: headless ? TestServer.maria.appleID : nil)
        try await server.app.test(.router) { client in
            let query = Form.encode([("client_id", Self.web), ("redirect_uri", Self.callback), ("state", Self.state)] + testCase.extra)
            let response = try await client.execute(uri: "/auth/authorize?" + query, method: .get)
            let expected = [URLQueryItem(name: "error", value: testCase.error), URLQueryItem(name: "state", value: Self.state)]
            switch testCase.delivery {
            case .query, .fragment:
                #expect(response.status == .found)
                let location = try #require(response.headers[.location])
                let components = try #require(URLComponents(string: location))
                #expect(components.scheme == "https")
                #expect(components.host == "juice.example.com")
                #expect(components.path == "/auth/callback")
                if testCase.delivery == .query {
                    #expect(components.queryItems == expected)
                    #expect(components.fragment == nil)
                } else {
                    #expect(components.query == nil)
                    let fragment = try #require(components.percentEncodedFragment)
                    #expect(URLComponents(string: "?" + fragment)?.queryItems == expected)
                }
            case .formPost:
                #expect(response.status == .ok)
                #expect(response.headers[.location] == nil)
                #expect(HTML.formAction(response.text) == Self.callback)
                #expect(HTML.hiddenInputs(response.text) == ["error": testCase.error, "state": Self.state])
            }
        }
    }

    @Test("an error after the redirect URI is proven carries no state when the request had none")
    func provenErrorWithoutState() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let query = Form.encode([("client_id", Self.web), ("redirect_uri", Self.callback), ("response_type", "token")])
            let response = try await client.execute(uri: "/auth/authorize?" + query, method: .get)
            #expect(response.status == .found)
            let location = try #require(response.headers[.location])
            #expect(URLComponents(string: location)?.queryItems == [URLQueryItem(name: "error", value: "unsupported_response_type")])
        }
    }

    // MARK: Successful answers by other routes

    @Test("POST /auth/authorize with a form body is answered like GET (headless): code and state in the query")
    func postAuthorize() async throws {
        let server = try await TestServer.make(autoApprove: TestServer.maria.appleID)
        try await server.app.test(.router) { client in
            let response = try await client.execute(
                uri: "/auth/authorize", method: .post, headers: Form.headers,
                body: ByteBuffer(
                    string: Form.encode([
                        ("client_id", Self.web), ("redirect_uri", Self.callback), ("response_type", "code"), ("state", Self.state),
                    ])))
            #expect(response.status == .found)
            #expect(response.headers[.cacheControl] == "no-store")
            let location = try #require(response.headers[.location])
            let components = try #require(URLComponents(string: location))
            #expect("\(components.scheme ?? "")://\(components.host ?? "")\(components.path)" == Self.callback)
            let items = try #require(components.queryItems)
            #expect(items.map(\.name) == ["code", "state"])
            #expect(items.last?.value == Self.state)
            let code = try #require(items.first?.value)
            #expect(code.wholeMatch(of: #/c[0-9a-f]{32}\.0\.[a-z]{4}\.[A-Za-z0-9_-]{22}/#) != nil)

            // The code is real: it redeems once.
            let redeemed = try await RP.redeem(client, code: code, secret: try await server.clientSecret())
            #expect(redeemed.status == .ok)
        }
    }

    @Test("code id_token with response_mode fragment puts code, id_token and state in the fragment")
    func fragment() async throws {
        let server = try await TestServer.make(autoApprove: TestServer.maria.appleID)
        try await server.app.test(.router) { client in
            let query = Form.encode([
                ("client_id", Self.web), ("redirect_uri", Self.callback), ("response_type", "code id_token"),
                ("response_mode", "fragment"), ("state", Self.state), ("nonce", "n-0S6_WzA2Mj"),
            ])
            let response = try await client.execute(uri: "/auth/authorize?" + query, method: .get)
            #expect(response.status == .found)
            let location = try #require(response.headers[.location])
            let components = try #require(URLComponents(string: location))
            #expect(components.query == nil)
            let fragment = try #require(components.percentEncodedFragment)
            let items = try #require(URLComponents(string: "?" + fragment)?.queryItems)
            #expect(items.map(\.name) == ["code", "id_token", "state"])
            #expect(items[2].value == Self.state)
            let code = try #require(items[0].value)
            let idToken = try #require(items[1].value)
            let claims = try await RP.verify(idToken, client)
            #expect(claims.codeHash == TokenHash.of(code))
            #expect(claims.nonce == "n-0S6_WzA2Mj")
            #expect(claims.audience == Self.web)
            #expect(claims.accessTokenHash == nil)
        }
    }
}
