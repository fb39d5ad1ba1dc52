import Foundation
import Hummingbird
import HummingbirdTesting
import SignInWithApple
import SignInWithAppleHummingbird
import SignInWithAppleTesting
import Testing

@Suite("Hummingbird routes: a fresh browser binding at every start, named __Host- on https", .timeLimit(.minutes(5)))
struct HummingbirdBrowserBindingTests {
    static let planted = String(repeating: "p", count: 43)

    static func router(_ client: SignInWithAppleClient) -> Router<BasicRequestContext> {
        let router = Router()
        SignInWithAppleRoutes<BasicRequestContext>(client: client, onSignIn: { _, _, _ in Response(status: .ok) }).register(on: router)
        router.get("/page") { request, _ in
            let (script, cookie) = try await client.startScript(for: request)
            var response = Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: script.initOptionsJSON)))
            response.setCookie(cookie)
            return response
        }
        return router
    }

    @Test("the start and the script's start never adopt a binding cookie the browser brings")
    func startsMintAFreshBinding() async throws {
        try await withAppleIDEmulator { apple in
            let client = try apple.makeClient()
            try await Application(router: Self.router(client)).test(.router) { http in
                for uri in ["/auth/apple", "/page"] {
                    let start = try await http.execute(uri: uri, method: .get, headers: [.cookie: client.browserCookieName + "=" + Self.planted])
                    let setCookie = try #require(start.headers[.setCookie], "\(uri) sets a new binding")
                    #expect(setCookie.hasPrefix(client.browserCookieName + "="))
                    #expect(!setCookie.hasPrefix(client.browserCookieName + "=" + Self.planted))
                }
            }
        }
    }

    @Test("on https the binding cookie is __Host-: Secure, Path=/, no Domain")
    func hostPrefixOnHTTPS() async throws {
        try await withAppleIDEmulator { apple in
            var configuration = apple.clientConfiguration()
            configuration.web?.redirectURI = "https://app.example/auth/apple/callback"
            try await Application(router: Self.router(try SignInWithAppleClient(configuration: configuration))).test(.router) { client in
                let start = try await client.execute(uri: "/auth/apple", method: .get)
                let setCookie = try #require(start.headers[.setCookie])
                #expect(setCookie.hasPrefix("__Host-apple_sign_in_browser="))
                #expect(setCookie.contains("Secure") && setCookie.contains("Path=/") && !setCookie.contains("Domain"))
            }
            configuration.web?.redirectURI = "http://127.0.0.1:8081/auth/apple/callback"
            #expect(try SignInWithAppleClient(configuration: configuration).browserCookieName == "apple_sign_in_browser", "plain on http development")
        }
    }
}
