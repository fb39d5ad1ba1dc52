import Foundation
import Hummingbird
import HummingbirdTesting
import SignInWithApple
import Testing

@testable import JuiceApp

@Suite("Juice: form tokens carry a secret, cookies are __Host- on https, every sign-in gets a fresh binding", .timeLimit(.minutes(5)))
struct FormTokenTests {
    static let planted = String(repeating: "p", count: 43)

    @Test("a planted browser cookie with a token computed from it alone (no server secret) is refused")
    func unkeyedTokenIsRefused() async throws {
        try await withJuice { juice in
            _ = try await juice.newBrowser().signUp(email: "kim@example.com", password: "long enough", firstName: "Kim", lastName: "Lee")
            let victim = juice.newBrowser()
            victim.plant(cookie: JuiceCookies.browser, value: Self.planted)
            let forged = try await victim.post(
                "/signin",
                [
                    ("csrf", SecretToken.hash("csrf:" + Self.planted)), ("email", "kim@example.com"), ("password", "long enough"),
                    ("next", "/account"),
                ])
            #expect(forged.status == UserFacingError.formExpired.status)
            #expect(try await victim.get("/account").status == .seeOther, "nobody is signed in")
        }
    }

    @Test("pressing Sign in with Apple sets a new binding even when the browser brings one")
    func startMintsAFreshBinding() async throws {
        try await withJuice { juice in
            let name = try SignInWithAppleClient(configuration: juice.apple.clientConfiguration()).browserCookieName
            let page = try await juice.browser.get("/signin")
            juice.browser.plant(cookie: name, value: Self.planted)
            let start = try await juice.browser.post("/signin/apple", [("next", "/account")], csrfFrom: page)
            #expect(start.status == .seeOther)
            let binding = start.headers[values: .setCookie].first { $0.hasPrefix(name + "=") }
            #expect(binding != nil && binding?.hasPrefix(name + "=" + Self.planted) == false)
        }
    }

    @Test("on https Juice's cookies and the kit's binding are __Host-: Secure, Path=/, no Domain")
    func hostPrefixOnHTTPS() async throws {
        @Sendable func overHTTPS(_ configuration: inout JuiceConfiguration) {
            configuration = JuiceConfiguration(
                baseURL: "https://juice.example", signInWithApple: configuration.signInWithApple, passwordHasher: configuration.passwordHasher)
            configuration.signInWithApple.web?.redirectURI = JuiceConfiguration.redirectURI(baseURL: "https://juice.example")
        }
        try await withJuice(configure: overHTTPS) { juice in
            let page = try await juice.browser.get("/signin")
            let start = try await juice.browser.post("/signin/apple", [("next", "/account")], csrfFrom: page)
            let cookies = page.headers[values: .setCookie] + start.headers[values: .setCookie]
            for name in ["juice_browser", "apple_sign_in_browser"] {
                let cookie = try #require(cookies.first { $0.hasPrefix("__Host-\(name)=") }, "\(name) in \(cookies)")
                #expect(cookie.contains("Secure") && cookie.contains("Path=/") && !cookie.contains("Domain"), "\(cookie)")
            }
        }
    }
}
