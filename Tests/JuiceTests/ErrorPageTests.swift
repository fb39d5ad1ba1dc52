import Foundation
import Hummingbird
import HummingbirdTesting
import SignInWithApple
import Testing

@testable import JuiceApp

@Suite("Juice: every failure the user can cause is a page with a way back", .timeLimit(.minutes(5)))
struct ErrorPageTests {
    static func expectHumanPage(_ response: TestResponse, title: String, status: HTTPResponse.Status = .badRequest) {
        #expect(response.status == status)
        #expect(response.headers[.contentType] == "text/html; charset=utf-8")
        #expect(response.text.contains(title))
        #expect(response.text.contains("<a href="))
        #expect(!response.text.contains("Error("))
        #expect(!response.text.contains("CallbackError"))
    }

    @Test("a cancelled sign-in (user_cancelled_authorize)")
    func cancelled() async throws {
        try await withJuice { juice in
            let start = try await juice.browser.post("/signin/apple", [("next", "/account")], csrfFrom: try await juice.browser.get("/signin"))
            let location = try #require(start.headers[.location])
            let state = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "state" }?.value)
            let response = try await juice.browser.postCallback(AuthorizationCallback(state: state, error: "user_cancelled_authorize"))
            Self.expectHumanPage(response, title: "Sign in with Apple was cancelled")
            #expect(try await juice.accountCount() == 0)
        }
    }

    @Test("an unknown or expired state")
    func unknownState() async throws {
        try await withJuice { juice in
            let response = try await juice.browser.postCallback(AuthorizationCallback(code: "c123", state: "not-a-state-juice-issued"))
            Self.expectHumanPage(response, title: "This sign-in has expired")
        }
    }

    @Test("a replayed callback")
    func replayed() async throws {
        try await withJuice { juice in
            let callback = try await juice.browser.approveAtApple(from: try await juice.browser.get("/signin"), as: juice.apple.defaultUser.appleID)
            #expect(try await juice.browser.postCallback(callback).status == .seeOther)
            let replay = try await juice.browser.postCallback(callback)
            Self.expectHumanPage(replay, title: "This sign-in has expired")
            #expect(try await juice.accountCount() == 1)
        }
    }

    @Test("a malformed callback, an unknown juice, an unknown page")
    func malformed() async throws {
        try await withJuice { juice in
            let response = try await juice.browser.client.execute(
                uri: "/auth/apple/callback", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "state=a&state=b"))
            Self.expectHumanPage(response, title: "Sign in with Apple did not complete")
            Self.expectHumanPage(try await juice.browser.get("/juices/durian"), title: "We don&#39;t have that juice", status: .notFound)
            Self.expectHumanPage(try await juice.browser.get("/no/such/page"), title: "Page not found", status: .notFound)
        }
    }

    @Test("an id_token from another issuer (the server restarted on another --host) is named as an issuer mismatch, not 'try again'")
    func issuerMismatch() async throws {
        let expected = "http://juice-expects.example:8080"
        let acceptOnlyExpected: @Sendable (inout JuiceConfiguration) -> Void = { configuration in
            let baseURL = configuration.signInWithApple.environment.baseURL
            configuration.signInWithApple.environment = .custom(baseURL: baseURL, issuers: [expected])
        }
        try await withJuice(configure: acceptOnlyExpected) { juice in
            let callback = try await juice.browser.approveAtApple(from: try await juice.browser.get("/signin"), as: juice.apple.defaultUser.appleID)
            let page = try await juice.browser.postCallback(callback)
            Self.expectHumanPage(page, title: "The issuer differs")
            let issuer = try #require(juice.apple.clientConfiguration().environment.issuers.first)
            #expect(page.text.contains(issuer), "the page names the issuer the token carries")
            #expect(page.text.contains(expected), "and the one Juice accepts")
            #expect(page.text.contains("--issuer"), "and what to check")
            #expect(!page.text.contains("try again in a moment"), "retrying cannot help")
        }
    }
}
