import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// From the first security review: one failure counter per Apple ID for the authorization pages and
/// the account pages together, counted before the check; each two-factor code used once; and a
/// login form that another site cannot submit.
@Suite("Sign-in limits and login CSRF")
struct SignInLimitTests {
    static func wrongCode(besides code: String) -> String { code == "000000" ? "111111" : "000000" }

    @Test("/account/sign-in has a limit: the sixth wrong password is refused unchecked (429)")
    func passwordLimit() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<6 { statuses.append(try await AccountPages.signIn(browser, password: "wrong").status) }
            #expect(statuses == Array(repeating: .unauthorized, count: 5) + [.tooManyRequests])
            let right = try await AccountPages.signIn(browser)
            #expect(right.status == .tooManyRequests, "while locked even the right password is not checked")
            #expect(right.text.contains("Too many failed attempts"))
        }
    }

    @Test("a new sign-in does not reset the wrong-code budget, and a lock refuses even the right code")
    func newSignInDoesNotReset() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let codePage = try await AccountPages.signIn(browser)
            let code = try #require(HTML.element(id: "development-code", in: codePage.text))
            for _ in 0..<4 {
                #expect(try await AccountPages.verify(browser, codePage: codePage, code: Self.wrongCode(besides: code)).status == .unauthorized)
            }
            // A fresh start of the sign-in: the right password, then the right code.
            let again = try await AccountPages.signIn(browser)
            #expect(again.status == .ok)
            #expect(try await AccountPages.verify(browser, codePage: again, code: Self.wrongCode(besides: code)).status == .unauthorized)
            let right = try await AccountPages.verify(browser, codePage: again, code: code)
            #expect(right.status == .tooManyRequests, "the fifth failure locked the Apple ID; the right code is not even checked")
            #expect(browser.cookies[BrowserCookiesName.accountSession] == nil)
        }
    }

    @Test("the authorization pages and the account pages share one counter")
    func sharedCounter() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            for _ in 0..<5 { _ = try await AccountPages.signIn(browser, password: "wrong") }
            let signIn = try await browser.get(WebFlowTests.authorizeURI())
            let csrf = try #require(HTML.hiddenInputs(signIn.text)["csrf"])
            let action = try #require(HTML.formAction(signIn.text))
            let refused = try await browser.post(
                action,
                form: [("csrf", csrf), ("action", "sign-in"), ("apple_id", TestServer.maria.appleID), ("password", TestServer.maria.password)])
            #expect(refused.text.contains("Too many failed attempts"))
            #expect(!refused.text.contains("Two-Factor Authentication"))
        }
    }

    @Test("a two-factor code is accepted once, even inside its window")
    func codeUsedOnce() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let first = Browser(client)
            let codePage = try await AccountPages.signIn(first)
            let code = try #require(HTML.element(id: "development-code", in: codePage.text))
            #expect(try await AccountPages.verify(first, codePage: codePage, code: code).status == .seeOther)

            let second = Browser(client)  // another browser, same instant, same code
            let secondPage = try await AccountPages.signIn(second)
            let replayed = try await AccountPages.verify(second, codePage: secondPage, code: code)
            #expect(replayed.status == .unauthorized)
            #expect(second.cookies[BrowserCookiesName.accountSession] == nil)
        }
    }

    @Test("/account/sign-in without the form's token (another site's form) signs nobody in")
    func loginCSRF() async throws {
        let server = try await TestServer.make { $0.passwordHashCost = 4 }
        try await server.app.test(.router) { client in
            let forged = try await RP.post(
                client, "/account/sign-in", [("apple_id", TestServer.maria.appleID), ("password", TestServer.maria.password)])
            #expect(forged.status == .badRequest)
            #expect(forged.headers[values: .setCookie].allSatisfy { !$0.hasPrefix("siwa_account_pending=") && !$0.hasPrefix("siwa_account=") })

            let browser = Browser(client)
            _ = try await browser.get("/account")
            let wrongToken = try await browser.post(
                "/account/sign-in", form: [("csrf", "forged"), ("apple_id", TestServer.maria.appleID), ("password", TestServer.maria.password)])
            #expect(wrongToken.status == .badRequest)
            #expect(try await AccountPages.signIn(browser).status == .ok, "the page's own form works")
        }
    }
}

/// Cookie names as the server sets them.
enum BrowserCookiesName {
    static let session = "siwa_session"
    /// The account pages' own session.
    static let accountSession = "siwa_account"
}
