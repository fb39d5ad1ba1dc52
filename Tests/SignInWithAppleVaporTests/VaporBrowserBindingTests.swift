import Foundation
import SignInWithApple
import SignInWithAppleTesting
import SignInWithAppleVapor
import Testing
import VaporTesting

@Suite("Vapor routes: a fresh browser binding at every start, named __Host- on https", .timeLimit(.minutes(5)))
struct VaporBrowserBindingTests {
    static let planted = String(repeating: "p", count: 43)

    static func routes(_ client: SignInWithAppleClient) -> SignInWithAppleRouteCollection {
        SignInWithAppleRouteCollection(client: client, onSignIn: { _, _ in Response(status: .ok) })
    }

    @Test("the start never adopts a binding cookie the browser brings (a sibling site or another port may have planted it)")
    func startMintsAFreshBinding() async throws {
        try await withAppleIDEmulator { apple in
            let client = try apple.makeClient()
            let routes = Self.routes(client)
            try await withApp(configure: { try $0.register(collection: routes) }) { app in
                let start = try await app.testing().sendRequest(
                    .GET, "/auth/apple", headers: ["Cookie": client.browserCookieName + "=" + Self.planted])
                #expect(start.status == .seeOther)
                let setCookie = try #require(start.headers.first(name: .setCookie), "a new binding is set")
                #expect(setCookie.hasPrefix(client.browserCookieName + "="))
                #expect(!setCookie.hasPrefix(client.browserCookieName + "=" + Self.planted))
            }
        }
    }

    @Test("on https the binding cookie is __Host-: Secure, Path=/, no Domain")
    func hostPrefixOnHTTPS() async throws {
        try await withAppleIDEmulator { apple in
            var configuration = apple.clientConfiguration()
            configuration.web?.redirectURI = "https://app.example/auth/apple/callback"
            let routes = Self.routes(try SignInWithAppleClient(configuration: configuration))
            try await withApp(configure: { try $0.register(collection: routes) }) { app in
                let start = try await app.testing().sendRequest(.GET, "/auth/apple")
                let setCookie = try #require(start.headers.first(name: .setCookie))
                #expect(setCookie.hasPrefix("__Host-apple_sign_in_browser="))
                #expect(setCookie.contains("Secure") && setCookie.contains("Path=/") && !setCookie.contains("Domain"))
            }
        }
    }
}
