import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Playground and landing page")
struct PlaygroundTests {
    @Test("one click: authorize, callback, token response, verified id_token; then refresh and revoke")
    func playgroundFlow() async throws {
        let server = try await TestServer.make(autoApprove: TestServer.maria.appleID, playground: true)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let landing = try await browser.get("/")
            #expect(landing.text.contains("href=\"/playground\""))

            let start = try await browser.get("/playground")
            let request = HTML.hiddenInputs(start.text)
            #expect(request["client_id"] == TestServer.servicesID.rawValue)
            #expect(request["response_mode"] == "form_post")
            let query = Form.encode(request.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            let answer = try await browser.get("/auth/authorize?" + query)
            let fields = HTML.hiddenInputs(answer.text)
            #expect(HTML.formAction(answer.text) == "http://127.0.0.1:8080/playground/callback")

            let callback = try await browser.post("/playground/callback", form: fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            #expect(callback.status == .ok)
            #expect(HTML.element(id: "state-check", in: callback.text) == "state matches this browser's request")
            #expect(callback.text.contains("id=\"token-response\""))
            #expect(callback.text.contains("signature verified with the key named by kid (RS256)"))
            #expect(callback.text.contains("nonce matches"))
            #expect(callback.text.contains("aud is com.example.juice.web"))
            let run = try #require(HTML.hiddenInputs(callback.text)["run"])
            #expect(HTML.hiddenInputs(callback.text)["refresh_token"] == nil, "the refresh token stays on the server")

            let refreshed = try await browser.post("/playground/refresh", form: [("run", run)])
            #expect(refreshed.text.contains("id=\"token-response\""))
            #expect(!refreshed.text.contains("nonce matches"))

            let revoked = try await browser.post("/playground/revoke", form: [("run", run)])
            #expect(revoked.text.contains("id=\"revoked\""))

            let refused = try await browser.post("/playground/refresh", form: [("run", run)])
            #expect(HTML.element(id: "token-error", in: refused.text) == "invalid_grant")
            #expect(HTML.element(id: "token-error-reason", in: refused.text) == "the refresh token was revoked")
            #expect(HTML.hiddenInputs(refused.text)["run"] == nil, "no Refresh or Revoke after a refused refresh")

            let replayed = try await browser.post("/playground/callback", form: fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            #expect(
                HTML.element(id: "state-check", in: replayed.text)
                    == "state is unknown, expired, already used or from another browser: refusing the callback")
            #expect(!replayed.text.contains("id=\"token-response\""))
        }
    }

    @Test("without demo facts there is no playground")
    func noPlayground() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let playground = try await client.execute(uri: "/playground", method: .get)
            #expect(playground.status == .notFound)
            let landing = try await client.execute(uri: "/", method: .get)
            #expect(!landing.text.contains("/playground"))
        }
    }

    @Test("with the playground off, /playground is a page that says so and how to turn it on, not a blank 404")
    func playgroundOffIsAPage() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let playground = try await client.execute(uri: "/playground", method: .get)
            #expect(playground.status == .notFound)
            #expect(playground.headers[.contentType] == "text/html; charset=utf-8")
            #expect(HTML.element(id: "playground-off", in: playground.text)?.contains("The playground is off") == true, "\(playground.text)")
        }
    }

    @Test("the clock notice is plain text for HTML: a command is quoted, never in Markdown backticks")
    func clockNoticeHasNoBackticks() async throws {
        let server = try await TestServer.make(playground: true)
        server.clock.advance(by: 301)
        try await server.app.test(.router) { client in
            let page = try await client.execute(uri: "/playground", method: .get)
            let notice = try #require(HTML.element(id: "clock-notice", in: page.text))
            #expect(notice.contains("“siwa clock reset”"), "\(notice)")
            #expect(!notice.contains("`"))
        }
    }
}

@Suite("web_message delivery (Apple JS popups)")
struct WebMessageTests {
    @Test("the popup page posts oauthDone to the opener at the redirect URI's origin only")
    func webMessage() async throws {
        let server = try await TestServer.make(autoApprove: TestServer.maria.appleID)
        try await server.app.test(.router) { client in
            let query = Form.encode([
                ("client_id", TestServer.servicesID.rawValue), ("redirect_uri", TestServer.redirectURI), ("response_type", "code id_token"),
                ("response_mode", "web_message"), ("scope", "name email"), ("state", "s</script><b>"), ("frame_id", "8d3a1b3c"), ("m", "11"),
                ("v", "1.5.6"),
            ])
            let page = try await client.execute(uri: "/auth/authorize?" + query, method: .get)
            #expect(page.status == .ok)
            let html = page.text
            #expect(html.contains(#"window.opener.postMessage("#))
            #expect(html.contains(#", "https://juice.example.com");"#))
            #expect(!html.contains("</script><b>"))
            let policy = try #require(page.headers[.contentSecurityPolicy])
            let nonce = try #require(html.firstMatch(of: #/<script nonce="([0-9a-f]+)">/#)?.1)
            #expect(policy.contains("script-src 'nonce-\(nonce)'"))
            let json = try #require(html.firstMatch(of: #/postMessage\((".*"), "https/#)?.1)
            let message = try JSONDecoder().decode(
                String.self,
                from: Data(String(json).replacingOccurrences(of: "\\u003c", with: "<").replacingOccurrences(of: "\\u003e", with: ">").utf8))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any])
            #expect(object["method"] as? String == "oauthDone")
            let data = try #require(object["data"] as? [String: Any])
            let authorization = try #require(data["authorization"] as? [String: Any])
            #expect(authorization["state"] as? String == "s</script><b>")
            #expect((authorization["code"] as? String)?.hasPrefix("c") == true)
            #expect(authorization["id_token"] is String)
            #expect((data["user"] as? [String: Any])?["email"] as? String == TestServer.maria.email)
        }
    }
}

@Suite("web_message answers: frame_id and Cancel")
struct WebMessageCancelTests {
    /// The `oauthDone` message of a web_message page, and the origin it is posted to.
    static func message(_ html: String) throws -> (message: [String: Any], origin: String) {
        let match = try #require(html.firstMatch(of: #/postMessage\((".*"), "([^"]*)"\);/#))
        let unescaped = String(match.1).replacingOccurrences(of: "\\u003c", with: "<").replacingOccurrences(of: "\\u003e", with: ">")
            .replacingOccurrences(of: "\\u0026", with: "&")
        let text = try JSONDecoder().decode(String.self, from: Data(unescaped.utf8))
        return (try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]), String(match.2))
    }

    static func authorizeURI(state: String) -> String {
        "/auth/authorize?"
            + Form.encode([
                ("client_id", TestServer.servicesID.rawValue), ("redirect_uri", TestServer.redirectURI), ("response_type", "code id_token"),
                ("response_mode", "web_message"), ("state", state), ("frame_id", "0f6f2f1e-0b7e-4c57-9d5e-6f3c2b1a0d9e"), ("m", "11"),
                ("v", "1.5.6"),
            ])
    }

    @Test("Cancel on the sign-in page posts user_cancelled_authorize with state and frame_id to the redirect URI's origin")
    func cancelSignIn() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let page = try await browser.get(Self.authorizeURI(state: "s-popup"))
            let csrf = try #require(HTML.hiddenInputs(page.text)["csrf"])
            let result = try await browser.post(try #require(HTML.formAction(page.text)), form: [("csrf", csrf), ("action", "cancel")])
            let (message, origin) = try Self.message(result.text)
            #expect(origin == "https://juice.example.com")
            #expect(message["method"] as? String == "oauthDone")
            #expect(message["frame_id"] as? String == "0f6f2f1e-0b7e-4c57-9d5e-6f3c2b1a0d9e")
            #expect(message["data"] as? [String: String] == ["error": "user_cancelled_authorize"])
        }
    }

    @Test("Cancel on the consent page is user_cancelled_authorize too")
    func cancelConsent() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let page = try await browser.get(Self.authorizeURI(state: "s-consent"))
            let action = try #require(HTML.formAction(page.text))
            let csrf = try #require(HTML.hiddenInputs(page.text)["csrf"])
            let twoFactor = try await browser.post(
                action,
                form: [("csrf", csrf), ("action", "sign-in"), ("apple_id", TestServer.maria.appleID), ("password", TestServer.maria.password)])
            let code = try #require(HTML.element(id: "development-code", in: twoFactor.text))
            let consent = try await browser.post(action, form: [("csrf", csrf), ("action", "verify"), ("code", code)])
            #expect(consent.text.contains(#"value="approve""#))
            let result = try await browser.post(action, form: [("csrf", csrf), ("action", "cancel")])
            let (message, origin) = try Self.message(result.text)
            #expect(origin == "https://juice.example.com")
            #expect(message["data"] as? [String: String] == ["error": "user_cancelled_authorize"])
        }
    }

    @Test("a successful popup answer carries the request's frame_id")
    func frameID() async throws {
        let server = try await TestServer.make(autoApprove: TestServer.maria.appleID)
        try await server.app.test(.router) { client in
            let page = try await client.execute(uri: Self.authorizeURI(state: "s-ok"), method: .get)
            let (message, _) = try Self.message(page.text)
            #expect(message["frame_id"] as? String == "0f6f2f1e-0b7e-4c57-9d5e-6f3c2b1a0d9e")
            #expect((message["data"] as? [String: Any])?["authorization"] != nil)
        }
    }
}
