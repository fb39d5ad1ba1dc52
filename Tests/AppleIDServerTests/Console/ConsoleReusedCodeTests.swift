import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Crypto
import Foundation
import HummingbirdTesting
import Testing

@Suite("Requests page: which code was reused")
struct ConsoleReusedCodeTests {
    @Test("a second redemption names the code by its hash prefix, when it was first redeemed, and the revocation; never the code")
    func reusedCode() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            let code = try await RP.code(client)
            let secret = try await server.clientSecret()
            #expect(try await RP.redeem(client, code: code, secret: secret).status == .ok)
            let firstRedemption = server.clock.now()
            server.clock.advance(by: 30)
            #expect(try await RP.redeem(client, code: code, secret: secret).status == .badRequest)
            let browser = Browser(client)
            _ = try await ConsolePages.signIn(browser)
            let page = try await browser.get("/console/requests?client_id=\(TestServer.servicesID.rawValue)")
            let prefix = SHA256.hash(data: Data(code.utf8)).map { String(format: "%02x", $0) }.joined().prefix(8)
            #expect(
                page.text.contains(
                    "the code with SHA-256 \(prefix)… was already redeemed at \(firstRedemption.ISO8601Format()); "
                        + "every token issued from it is now revoked (a reused code means it leaked)"))
            #expect(!page.text.contains(code))
            #expect(!page.text.contains(secret))
        }
    }
}
