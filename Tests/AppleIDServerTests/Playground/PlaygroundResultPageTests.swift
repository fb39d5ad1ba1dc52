import AppleIDProtocol
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AppleIDServer

@Suite("Playground result page")
struct PlaygroundResultPageTests {
    /// Runs the playground's sign-in (auto-approved) and posts the callback; answers the result page.
    static func callback(_ browser: Browser) async throws -> TestResponse {
        try await browser.post("/playground/callback", form: try await callbackFields(browser))
    }

    /// A playground run started and authorized (auto-approved): the fields its callback receives.
    static func callbackFields(_ browser: Browser) async throws -> [(String, String)] {
        let start = try await browser.get("/playground")
        let query = Form.encode(HTML.hiddenInputs(start.text).sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        let answer = try await browser.get("/auth/authorize?" + query)
        return HTML.hiddenInputs(answer.text).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    static func memberNames(_ json: String) -> [String] {
        json.matches(of: #/"([a-z_]+)":/#).map { String($0.1) }
    }

    @Test("the id_token's header and claims are shown in the token's own member order")
    func tokenOrder() async throws {
        let server = try await TestServer.make(autoApprove: TestServer.maria.appleID, playground: true)
        try await server.app.test(.router) { client in
            let page = try await Self.callback(Browser(client))
            let claims = try #require(page.text.firstMatch(of: #/<pre id="id-token-claims">([^<]*)</pre>/#)).1
            let header = try #require(page.text.firstMatch(of: #/<pre id="id-token-header">([^<]*)</pre>/#)).1
            let response = HTML.unescape(String(try #require(page.text.firstMatch(of: #/<pre id="token-response">([^<]*)</pre>/#)).1))
            let idToken = try #require(response.firstMatch(of: #/"id_token": "([^"]+)"/#)).1.split(separator: ".")
            let signedClaims = String(decoding: try Base64URL.decode(String(idToken[1])), as: UTF8.self)
            #expect(Self.memberNames(HTML.unescape(String(header))) == ["kid", "alg"])
            #expect(Self.memberNames(HTML.unescape(String(claims))) == Self.memberNames(signedClaims))
            #expect(Self.memberNames(HTML.unescape(String(claims))).prefix(5) == ["iss", "aud", "exp", "iat", "sub"])
            #expect(Self.memberNames(response).prefix(2) == ["access_token", "token_type"])
            #expect(HTML.unescape(String(claims)).hasPrefix("{\n  \"iss\": \"http://127.0.0.1:8080\",\n  \"aud\": \"com.example.juice.web\",\n"))
        }
    }

    @Test("pretty-printing keeps order, spelling, escapes and empty containers")
    func prettyPrinter() {
        let json = #"{"b":1,"a":[true,{"x":"a,\"b\":c"}],"e":{},"f":[],"g":1.50}"#
        #expect(
            OrderPreservingJSON.prettyPrinted(Array(json.utf8))
                == "{\n  \"b\": 1,\n  \"a\": [\n    true,\n    {\n      \"x\": \"a,\\\"b\\\":c\"\n    }\n  ],\n  \"e\": {},\n  \"f\": [],\n  \"g\": 1.50\n}"
        )
        #expect(OrderPreservingJSON.prettyPrinted(Array("not json {".utf8)) == "not json {")
    }

    @Test("the labels of the callback fields are a column of their own, not wrapped letter by letter")
    func fieldTable() async throws {
        let server = try await TestServer.make(autoApprove: TestServer.maria.appleID, playground: true)
        try await server.app.test(.router) { client in
            let page = try await Self.callback(Browser(client))
            #expect(page.text.contains(#"<table class="fields"><tr><th scope="row"><code>code</code></th><td><code>"#))
            #expect(page.text.contains("th { white-space: nowrap; width: 1%; font-weight: 600; }"))
            #expect(!page.text.contains("word-break: break-all; }\n.apple-button"))
        }
    }

    @Test("a response_mode=query error arrives as a GET: the page shows error and state, and refuses the unknown state as an error")
    func queryError() async throws {
        let server = try await TestServer.make(playground: true)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let page = try await browser.get("/playground/callback?error=user_cancelled_authorize&state=abc123")
            #expect(page.status == .ok)
            #expect(HTML.element(id: "callback-error-code", in: page.text) == "user_cancelled_authorize")
            #expect(HTML.element(id: "callback-error-state", in: page.text) == "abc123")
            #expect(page.text.contains(#"<p class="message" id="state-check">state is unknown"#))
            #expect(!page.text.contains("id=\"token-response\""))
        }
    }

    @Test("a refused refresh is an error box and offers no Refresh or Revoke")
    func refusedRefresh() async throws {
        let server = try await TestServer.make(autoApprove: TestServer.maria.appleID, playground: true)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let page = try await Self.callback(browser)
            #expect(page.text.contains(#"<p class="hint" id="state-check">state matches this browser&#39;s request</p>"#))
            #expect(page.text.contains(#"action="/playground/refresh""#))
            let run = try #require(HTML.hiddenInputs(page.text)["run"])
            _ = try await browser.post("/playground/revoke", form: [("run", run)])
            let refused = try await browser.post("/playground/refresh", form: [("run", run)])
            #expect(refused.text.contains(#"<div class="message" id="refusal">"#))
            #expect(HTML.element(id: "token-error", in: refused.text) == "invalid_grant")
            #expect(!refused.text.contains(#"action="/playground/refresh""#))
            #expect(!refused.text.contains(#"action="/playground/revoke""#))
            let stranger = try await Browser(client).post("/playground/refresh", form: [("run", run)])
            #expect(stranger.status == .forbidden)
            #expect(!stranger.text.contains(#"action="/playground/refresh""#))
        }
    }
}
