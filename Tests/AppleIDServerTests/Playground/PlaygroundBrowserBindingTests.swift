import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird
import HummingbirdTesting
import OwnerOnlyFiles
import Testing

@testable import AppleIDServer
@testable import AppleIDServerApp

/// From the first security review: the playground is no anonymous relying party for the demo Services ID.
@Suite("The playground acts only for its own browser's runs")
struct PlaygroundBrowserBindingTests {
    @Test("refresh and revoke refuse a pasted refresh token and another browser's run")
    func otherBrowsersRun() async throws {
        let server = try await TestServer.make(autoApprove: TestServer.maria.appleID, playground: true)
        try await server.app.test(.router) { client in
            let owner = Browser(client)
            let callback = try await PlaygroundResultPageTests.callback(owner)
            let run = try #require(HTML.hiddenInputs(callback.text)["run"])

            // A refresh token obtained elsewhere, pasted into the playground's form by anyone.
            let code = try await RP.code(client)
            let tokens = try await RP.redeem(client, code: code, secret: try await server.clientSecret()).tokens()
            let stranger = Browser(client)
            _ = try await stranger.get("/playground")
            for path in ["/playground/refresh", "/playground/revoke"] {
                let pasted = try await stranger.post(path, form: [("refresh_token", try #require(tokens.refreshToken))])
                #expect(pasted.status == .forbidden)
                let foreign = try await stranger.post(path, form: [("run", run)])
                #expect(foreign.status == .forbidden, "\(path) with another browser's run")
            }
            let refreshed = try await RP.refresh(client, refreshToken: try #require(tokens.refreshToken), secret: try await server.clientSecret())
            #expect(refreshed.status == .ok, "the pasted token was not revoked")
            #expect(try await owner.post("/playground/refresh", form: [("run", run)]).status == .ok)
        }
    }

    @Test("a callback from another browser than the one that started the run is refused")
    func callbackFromAnotherBrowser() async throws {
        let server = try await TestServer.make(autoApprove: TestServer.maria.appleID, playground: true)
        try await server.app.test(.router) { client in
            let starter = Browser(client)
            let start = try await starter.get("/playground")
            let query = Form.encode(HTML.hiddenInputs(start.text).sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            let answer = try await starter.get("/auth/authorize?" + query)
            let fields = HTML.hiddenInputs(answer.text).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            let other = try await Browser(client).post("/playground/callback", form: fields)
            #expect(!other.text.contains("id=\"token-response\""))
        }
    }

    @Test("a started sign-in lives ten minutes and a run an hour")
    func expiry() async throws {
        let server = try await TestServer.make(autoApprove: TestServer.maria.appleID, playground: true)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let callback = try await PlaygroundResultPageTests.callback(browser)
            let run = try #require(HTML.hiddenInputs(callback.text)["run"])
            let fields = try await PlaygroundResultPageTests.callbackFields(browser)

            server.clock.advance(by: 601)
            let late = try await browser.post("/playground/callback", form: fields)
            #expect(
                HTML.element(id: "state-check", in: late.text)
                    == "state is unknown, expired, already used or from another browser: refusing the callback")
            #expect(try await browser.post("/playground/refresh", form: [("run", run)]).status == .ok, "the run lives on")

            server.clock.advance(by: 3_601)
            #expect(try await browser.post("/playground/refresh", form: [("run", run)]).status == .forbidden, "an hour after its last token")
        }
    }
}
