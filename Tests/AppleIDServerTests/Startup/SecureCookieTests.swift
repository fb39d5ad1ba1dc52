import AppleIDProvider
import Hummingbird
import HummingbirdTesting
import ServerTestSupport
import Testing

@testable import AppleIDServer

/// From the first security review: Secure cookies. Development mode by bind and files at rest:
/// `Tests/AppleIDServerAppTests/Startup/StartupDefaultsTests`.
@Suite("Start-up defaults: Secure cookies")
struct SecureCookieTests {
    @Test("cookies are Secure when browsers reach the server over https (its URL or its own https issuer)")
    func secureCookies() async throws {
        #expect(ServerOptions(baseURL: "https://id.example.com", adminToken: "t").usesSecureCookies(issuer: "https://id.example.com"))
        #expect(ServerOptions(adminToken: "t").usesSecureCookies(issuer: "https://id.example.com"), "TLS ended by a proxy in front")
        #expect(!ServerOptions(adminToken: "t").usesSecureCookies(issuer: "http://127.0.0.1:8080"))
        #expect(!ServerOptions(adminToken: "t").usesSecureCookies(issuer: ProviderConfiguration.appleIssuer), "--issuer apple on a local server")

        let server = try await TestServer.make { $0.issuer = "https://id.example.com" }
        try await server.app.test(.router) { client in
            let page = try await client.execute(uri: WebFlowTests.authorizeURI(), method: .get)
            let cookies = page.headers[values: .setCookie]
            #expect(!cookies.isEmpty && cookies.allSatisfy { $0.contains("Secure") })
        }
    }
}
