import Foundation
import Hummingbird
import HummingbirdTesting
import SQLKit
import SignInWithAppleTesting
import Testing

@testable import JuiceApp

/// Issue 11: Juice's sign-in page runs Sign in with Apple JS in popup mode, from the Apple ID server
/// Juice is pointed at, and its backend completes the popup's authorization with the rules of the
/// `form_post` path: the same browser, the intent, the first authorization's name.
@Suite("Juice: Sign in with Apple JS's popup on the sign-in page", .timeLimit(.minutes(5)))
struct PopupSignInTests {
    @Test("the sign-in page loads Sign in with Apple JS from the Apple ID server; its button's POST configures it")
    func pageConfiguresTheScript() async throws {
        try await withJuice { juice in
            let page = try await juice.browser.get("/signin?next=/order/orange")
            #expect(page.status == .ok)
            let scriptURL = juice.apple.baseURL + "/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js"
            #expect(page.text.contains("<script src=\"\(scriptURL)\"></script>"))
            #expect(page.text.contains("<script src=\"/scripts/sign-in.js\"></script>"))
            #expect(page.text.contains("<div id=\"appleid-signin\" data-color=\"black\" data-border=\"false\" data-type=\"sign-in\""))
            #expect(!page.text.contains("appleid-signin-state"), "the page holds no sign-in: it starts when the button is pressed")
            let (start, script) = try await juice.browser.startPopup(from: page)
            let web = try #require(juice.apple.clientConfiguration().web)
            #expect(script.clientID == web.servicesID)
            #expect(script.redirectURI == web.redirectURI)
            #expect(script.scope == "name email")
            #expect(script.usePopup)
            #expect(script.state.count >= 43)
            #expect(script.nonce.count >= 22)
            #expect(start.headers[.cacheControl] == "no-store")
            let forged = try await juice.newBrowser().post("/signin/apple/script", [("csrf", "forged"), ("next", "/account")])
            #expect(forged.status == .badRequest, "the start needs the page's CSRF token")
            // Scripts from Juice itself and from the Apple ID server only; every other page runs none.
            let origin = try #require(URLComponents(string: juice.apple.baseURL)).host.map { "http://\($0)" }
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy.contains("script-src 'self' \(try #require(origin)):"))
            #expect(try await juice.browser.get("/").headers[.contentSecurityPolicy]?.contains("script-src 'none'") == true)
            // The browser binding is set by the start; the redirect form stays for pages without JavaScript.
            #expect(start.headers[values: .setCookie].contains { $0.contains("apple_sign_in_browser=") && $0.contains("HttpOnly") })
            #expect(page.text.contains("id=\"sign-in-with-apple-redirect\""))

            let pageScript = try await juice.browser.get("/scripts/sign-in.js")
            #expect(pageScript.status == .ok)
            #expect(pageScript.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(pageScript.text.contains("AppleIDSignInOnSuccess"))
        }
    }

    @Test("showing the sign-in page writes nothing: the script's sign-in starts when the button is pressed")
    func pageWritesNothing() async throws {
        try await withJuice { juice in
            for _ in 0..<3 { #expect(try await juice.browser.get("/signin").status == .ok) }
            let entries = try await juice.database.sql.raw("SELECT COUNT(*) AS n FROM sign_in_with_apple_entries").first(
                decodingColumn: "n", as: Int.self)
            let intents = try await juice.database.sql.raw("SELECT COUNT(*) AS n FROM sign_in_intents").first(decodingColumn: "n", as: Int.self)
            #expect(entries == 0)
            #expect(intents == 0)
        }
    }

    @Test("the popup's authorization, posted by the page, signs in, keeps the name and returns to the page that asked")
    func popupSignsIn() async throws {
        try await withJuice { juice in
            let user = juice.apple.defaultUser
            let page = try await juice.browser.get("/signin?next=/order/orange")
            let authorization = try await juice.browser.approveInPopup(
                from: page, as: user.appleID, choices: ConsentChoices(firstName: "Emma", lastName: "Apple", hideEmail: false))
            #expect(authorization.user?.name?.firstName == "Emma")
            let done = try await juice.browser.postPopupResult(authorization)
            #expect(done.status == .seeOther)
            #expect(done.headers[.location] == "/order/orange")
            #expect(try await juice.browser.get("/account").text.contains("Hello, Emma Apple"))
            let account = try #require(try await juice.account(email: user.email))
            #expect(account.appleRefreshToken != nil)
            #expect(account.emailVerified)

            // The same authorization again: its state was used, nothing happens.
            let replay = try await juice.browser.postPopupResult(authorization)
            #expect(replay.status == .badRequest)
            #expect(try await juice.accountCount() == 1)
        }
    }

    @Test("login CSRF: the attacker's popup result, posted from the victim's browser, is refused and revoked")
    func popupResultFromAnotherBrowser() async throws {
        try await withJuice { juice in
            let (attacker, victim) = (juice.newBrowser(), juice.newBrowser())
            try await juice.apple.createUser(appleID: BrowserBindingTests.attackerAppleID, firstName: "Mal", lastName: "Lory")
            _ = try await victim.get("/signin")
            let authorization = try await attacker.approveInPopup(from: try await attacker.get("/signin"), as: BrowserBindingTests.attackerAppleID)

            BrowserBindingTests.expectRefused(try await victim.postPopupResult(authorization))
            #expect(try await victim.get("/account").status == .seeOther)
            #expect(try await juice.accountCount() == 0)
            // Revoked at Apple: the attacker's next sign-in is a first authorization again, with the name.
            let again = try await attacker.approveInPopup(from: try await attacker.get("/signin"), as: BrowserBindingTests.attackerAppleID)
            #expect(again.user?.name?.firstName == "Mal")
        }
    }

    @Test("a popup result without the browser's cookie (a cross-site post) is refused")
    func popupResultWithoutCookie() async throws {
        try await withJuice { juice in
            let page = try await juice.browser.get("/signin")
            let authorization = try await juice.browser.approveInPopup(from: page, as: juice.apple.defaultUser.appleID)
            let stranger = juice.newBrowser()
            BrowserBindingTests.expectRefused(try await stranger.postPopupResult(authorization))
            #expect(try await juice.accountCount() == 0)
        }
    }
}
