import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import HummingbirdTesting
import Testing

/// Anyone who knows a client ID can send requests that name it; those whose client is not proven
/// (a secret that does not verify, a redirect_uri that is not registered) go to their own bucket.
@Suite("Requests page: unproven requests are kept apart, limited, and quoted truncated")
struct ConsoleRequestBucketTests {
    /// The HTML of the table with this id, up to its end.
    static func table(id: String, in html: String) -> String? {
        guard let start = html.range(of: "<table id=\"\(id)\"") else { return nil }
        let rest = html[start.lowerBound...]
        return rest.range(of: "</table>").map { String(rest[..<$0.upperBound]) }
    }

    @Test("61 authorize requests with an unregistered redirect_uri evict no real entry, are limited, and quote 60 characters")
    func unprovenRequestsKeptApart() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            let code = try await RP.code(client)
            #expect(try await RP.redeem(client, code: code, secret: try await server.clientSecret()).status == .ok)
            let attackerText = "https://bank.example.com/" + String(repeating: "Totally-Legit-Bank-", count: 10)
            for index in 0..<61 {
                let flood = try await client.execute(
                    uri: "/auth/authorize?"
                        + Form.encode([
                            ("client_id", TestServer.servicesID.rawValue), ("redirect_uri", attackerText + "\(index)"), ("response_type", "code"),
                        ]),
                    method: .get)
                #expect(flood.status == .badRequest)
            }
            let browser = Browser(client)
            _ = try await ConsolePages.signIn(browser)
            let page = try await browser.get("/console/requests?client_id=\(TestServer.servicesID.rawValue)")
            let proven = try #require(Self.table(id: "requests", in: page.text), "the proven requests' table")
            #expect(proven.contains("<code>/auth/token</code></td><td><strong>ok</strong>"), "the real exchange is still listed")
            let unproven = try #require(Self.table(id: "unproven-requests", in: page.text), "the unproven requests' table")
            let rows = unproven.components(separatedBy: "<tr class=").count - 1
            #expect(rows == RequestLogSettings().unprovenPerMinute, "rate-limited: \(rows) rows")
            #expect(!page.text.contains(attackerText), "the attacker's text is never quoted whole")
            #expect(unproven.contains(String(attackerText.prefix(60)) + "… (truncated from"))
        }
    }
}
