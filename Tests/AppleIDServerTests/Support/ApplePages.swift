import Foundation
import HummingbirdTesting
import Testing

/// Every Apple ID page, as a browser reaches it in one locale: `?locale=` on the first request of
/// each flow, then the `locale` field each page's form carries.
enum ApplePages {
    struct Rendered {
        let name: String
        let html: String
    }

    static func all(locale: String, server: TestServer, client: any TestClientProtocol) async throws -> [Rendered] {
        var pages: [Rendered] = []
        let browser = Browser(client)
        let signIn = try await browser.get(WebFlowTests.authorizeURI() + "&locale=\(locale)")
        pages.append(.init(name: "sign-in", html: signIn.text))
        let action = try #require(HTML.formAction(signIn.text))
        func post(_ page: TestResponse, _ fields: [(String, String)]) async throws -> TestResponse {
            let hidden = HTML.hiddenInputs(page.text)
            return try await browser.post(action, form: [("csrf", hidden["csrf"] ?? ""), ("locale", hidden["locale"] ?? "")] + fields)
        }
        let wrong = try await post(signIn, [("action", "sign-in"), ("apple_id", TestServer.maria.appleID), ("password", "wrong")])
        pages.append(.init(name: "sign-in, wrong password", html: wrong.text))
        let twoFactor = try await post(
            wrong, [("action", "sign-in"), ("apple_id", TestServer.maria.appleID), ("password", TestServer.maria.password)])
        pages.append(.init(name: "two-factor", html: twoFactor.text))
        let wrongCode = try await post(twoFactor, [("action", "verify"), ("code", "000000")])
        pages.append(.init(name: "two-factor, wrong code", html: wrongCode.text))
        let code = try #require(HTML.element(id: "development-code", in: twoFactor.text))
        let consent = try await post(wrongCode, [("action", "verify"), ("code", code)])
        pages.append(.init(name: "consent", html: consent.text))
        _ = try await post(consent, [("action", "approve"), ("first_name", "Maria"), ("last_name", "Ruiz"), ("email", "hide")])
        let confirm = try await browser.get(WebFlowTests.authorizeURI(state: "state-2") + "&locale=\(locale)")
        pages.append(.init(name: "continue", html: confirm.text))
        pages.append(.init(name: "error", html: try await browser.get("/auth/authorize?locale=\(locale)").text))
        pages.append(.init(name: "expired", html: try await browser.get("/auth/interaction/unknown?locale=\(locale)").text))

        // The next two-factor code: a code signs in once.
        server.clock.advance(by: 30)
        let account = Browser(client)
        let accountSignIn = try await account.get("/account?locale=\(locale)")
        pages.append(.init(name: "account sign-in", html: accountSignIn.text))
        func postAccount(_ path: String, _ page: TestResponse, _ fields: [(String, String)]) async throws -> TestResponse {
            let hidden = HTML.hiddenInputs(page.text)
            return try await account.post(path, form: [("csrf", hidden["csrf"] ?? ""), ("locale", hidden["locale"] ?? "")] + fields)
        }
        let accountWrong = try await postAccount(
            "/account/sign-in", accountSignIn, [("apple_id", TestServer.maria.appleID), ("password", "wrong")])
        pages.append(.init(name: "account sign-in, wrong password", html: accountWrong.text))
        let accountCode = try await postAccount(
            "/account/sign-in", accountWrong, [("apple_id", TestServer.maria.appleID), ("password", TestServer.maria.password)])
        pages.append(.init(name: "account code", html: accountCode.text))
        let verified = try await postAccount(
            "/account/verify", accountCode, [("code", try #require(HTML.element(id: "development-code", in: accountCode.text)))])
        let location = try #require(verified.headers[.location], "\(verified.status) \(verified.text)")
        let accountPage = try await account.get(location)
        pages.append(.init(name: "account", html: accountPage.text))
        let turnedOff = try await postAccount(
            "/account/relay", accountPage, [("team_id", TestServer.teamID.rawValue), ("forwarding", "off")])
        pages.append(.init(name: "account, forwarding off", html: turnedOff.text))
        return pages
    }

    /// The page's visible text: no style sheet, no tags.
    static func visibleText(_ html: String) -> String {
        let withoutStyle = html.replacing(#/<style>[\s\S]*?</style>/#, with: "")
        return HTML.unescape(withoutStyle.replacing(#/<[^>]*>/#, with: " "))
    }
}
