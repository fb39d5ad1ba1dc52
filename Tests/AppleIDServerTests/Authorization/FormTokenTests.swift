import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AppleIDServer

/// The form tokens of the account and console sign-in forms, and the names of the pages' cookies.
@Suite("Form tokens carry a server secret; page cookies are __Host- on https", .timeLimit(.minutes(5)))
struct FormTokenTests {
    static let planted = String(repeating: "ab", count: 32)

    /// The token as it was derived before it carried a secret: anyone who planted the cookie could compute it.
    static func unkeyedToken(_ purpose: String, _ cookie: String) -> String {
        SHA256.hash(data: Array((purpose + cookie).utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static func post(
        _ client: some TestClientProtocol, _ uri: String, cookie: String, _ fields: [(String, String)]
    ) async throws -> TestResponse {
        let body = fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
        return try await client.execute(
            uri: uri, method: .post, headers: [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: body))
    }

    @Test("a planted account login cookie with a token computed from it alone (no server secret) signs nobody in")
    func accountLoginTokenNeedsTheSecret() async throws {
        let server = try await TestServer.make { $0.passwordHashCost = 4 }
        try await server.app.test(.router) { client in
            let forged = try await Self.post(
                client, "/account/sign-in", cookie: "siwa_account_login=\(Self.planted)",
                [
                    ("csrf", Self.unkeyedToken("account-login-csrf:", Self.planted)), ("apple_id", TestServer.maria.appleID),
                    ("password", TestServer.maria.password),
                ])
            #expect(forged.status == .badRequest)
            #expect(forged.headers[values: .setCookie].allSatisfy { !$0.contains("siwa_account_pending=") && !$0.contains("siwa_account=") })
        }
    }

    @Test("a planted console login cookie with a token computed from it alone signs no developer in")
    func consoleLoginTokenNeedsTheSecret() async throws {
        let server = try await TestServer.make { $0.passwordHashCost = 4 }
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            let forged = try await Self.post(
                client, "/console/sign-in", cookie: "siwa_console_login=\(Self.planted)",
                [
                    ("csrf", Self.unkeyedToken("console-login-csrf:", Self.planted)), ("email", ConsolePages.email),
                    ("password", ConsolePages.password),
                ])
            #expect(forged.status == .badRequest)
            #expect(forged.headers[values: .setCookie].allSatisfy { !$0.contains("siwa_console=") })
        }
    }

    @Test("on https the pages' session, login and binding cookies are __Host-: Secure, Path=/, no Domain")
    func hostPrefixOnHTTPS() async throws {
        let server = try await TestServer.make { $0.issuer = "https://id.example.com" }
        try await server.app.test(.router) { client in
            let setCookies = [
                try await client.execute(uri: WebFlowTests.authorizeURI(), method: .get),
                try await client.execute(uri: "/account", method: .get),
                try await client.execute(uri: "/console", method: .get),
            ].flatMap { $0.headers[values: .setCookie] }
            for name in ["siwa_browser", "siwa_account_login", "siwa_console_login"] {
                let cookie = try #require(setCookies.first { $0.hasPrefix("__Host-\(name)=") }, "\(name) in \(setCookies)")
                #expect(
                    cookie.contains("Secure") && cookie.split(separator: ";").contains { $0.trimmingCharacters(in: .whitespaces) == "Path=/" }
                        && !cookie.contains("Domain"), "\(cookie)")
            }
        }
    }

    @Test("on plain http (local development) the cookies keep their plain names")
    func plainNamesOnHTTP() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let account = try await client.execute(uri: "/account", method: .get)
            #expect(account.headers[values: .setCookie].contains { $0.hasPrefix("siwa_account_login=") })
        }
    }
}
