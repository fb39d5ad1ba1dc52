import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The account pages have their own sign-in, as Apple's do: signing in to an app through the
/// sign-in pages does not open `/account`, and signing in at `/account` does not skip the password
/// on the sign-in pages.
@Suite("Account pages: their own session")
struct AccountSessionTests {
    static let passwordForm = #"action="/account/sign-in""#
    static let deleteForm = #"action="/account/delete""#

    @Test("a browser signed in on the sign-in pages is asked for its Apple ID and password at /account")
    func signInPagesSessionDoesNotOpenAccount() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            _ = try await WebFlowTests.signInUntilConsent(browser, server: server)
            let page = try await browser.get("/account")
            #expect(page.text.contains(Self.passwordForm), "the account page was shown without a password")
            #expect(!page.text.contains(Self.deleteForm))
        }
    }

    @Test("a browser signed in at /account is asked for its Apple ID and password on the sign-in pages")
    func accountSessionDoesNotSkipPassword() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            try await Self.signInToAccount(browser)
            #expect(try await browser.get("/account").text.contains(Self.deleteForm))
            let authorize = try await browser.get(WebFlowTests.authorizeURI())
            #expect(authorize.text.contains(#"name="password""#), "the sign-in pages skipped the password")
            #expect(!authorize.text.contains("Create an account for Juice"))
        }
    }

    /// The server only picks the cookie; the engine refuses a session of the other kind, so a value
    /// moved from one cookie to the other opens nothing either.
    @Test("a session moved to the other cookie opens neither /account nor the consent page")
    func sessionsDoNotCrossCookies() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let browser = try await Self.signedInOnBoth(client, server: server)
            let signInPagesSession = try #require(browser.cookies["siwa_session"])
            let accountSession = try #require(browser.cookies["siwa_account"])
            #expect(signInPagesSession != accountSession)

            let account = try await client.execute(
                uri: "/account", method: .get, headers: [.cookie: "siwa_account=\(signInPagesSession)"])
            #expect(account.text.contains(Self.passwordForm))
            #expect(!account.text.contains(Self.deleteForm))
            let authorize = try await client.execute(
                uri: WebFlowTests.authorizeURI(), method: .get, headers: [.cookie: "siwa_session=\(accountSession)"])
            #expect(authorize.text.contains(#"name="password""#))
            #expect(!authorize.text.contains("Create an account for Juice"))
        }
    }

    @Test("signing out of the account pages ends their session only, and the cookie is dropped")
    func signOutEndsOnlyTheAccountSession() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let browser = try await Self.signedInOnBoth(client, server: server)
            let page = try await browser.get("/account")
            let csrf = try #require(HTML.hiddenInputs(page.text)["csrf"])
            let signedOut = try await browser.post("/account/sign-out", form: [("csrf", csrf)])
            #expect(signedOut.status == .seeOther)
            #expect(signedOut.headers[values: .setCookie].contains { $0.hasPrefix("siwa_account=;") && $0.contains("Max-Age=0") })
            #expect(try await browser.get("/account").text.contains(Self.passwordForm))
            #expect(try await browser.get(WebFlowTests.authorizeURI(state: "state-2")).text.contains("Create an account for Juice"))
        }
    }

    @Test("the account session cookie is HttpOnly, SameSite=Lax and scoped to /account")
    func accountCookieAttributes() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let codeStep = try await AccountPages.signIn(browser)
            let verified = try await AccountPages.verify(
                browser, codePage: codeStep, code: try #require(HTML.element(id: "development-code", in: codeStep.text)))
            let cookie = try #require(verified.headers[values: .setCookie].first { $0.hasPrefix("siwa_account=") })
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/account"))
            #expect(!verified.headers[values: .setCookie].contains { $0.hasPrefix("siwa_session=") })
        }
    }

    /// A browser signed in on the sign-in pages (up to consent) and then at `/account`.
    static func signedInOnBoth(_ client: any TestClientProtocol, server: TestServer) async throws -> Browser {
        let browser = Browser(client)
        _ = try await WebFlowTests.signInUntilConsent(browser, server: server)
        server.clock.advance(by: 30)  // the next two-factor code: a code signs in once
        try await signInToAccount(browser)
        return browser
    }

    /// Password and two-factor code at `/account`.
    static func signInToAccount(_ browser: Browser) async throws {
        let codeStep = try await AccountPages.signIn(browser)
        let code = try #require(HTML.element(id: "development-code", in: codeStep.text))
        let verified = try await AccountPages.verify(browser, codePage: codeStep, code: code)
        #expect(verified.status == .seeOther)
    }
}
