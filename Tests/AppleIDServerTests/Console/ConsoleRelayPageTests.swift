import AppleIDConsole
import AppleIDEmailSources
import AppleIDProtocol
import AppleIDProvider
import Foundation
import HummingbirdTesting
import ServerTestSupport
import Testing

@Suite("Console › Relay: the team's relay traffic per e-mail source")
struct ConsoleRelayPageTests {
    @Test("accepted, refused (with the reason) and per-source counts answer \"why did my mail not arrive?\"; another team sees none of it")
    func trafficPerSource() async throws {
        let (server, relay) = try await AccountMailPagesTests.mailServer()
        _ = try await server.provider.addEmailSources("news@example.org", teamID: TestServer.teamID)
        let mail = server.relay
        _ = try await AccountMailPagesTests.send(server, to: relay, subject: "Order <one>", body: "1")
        #expect(try await mail.checkRecipient(relay, sender: "spam@elsewhere.com").code == 550)
        #expect(try await mail.checkRecipient(relay, sender: "spam@elsewhere.com").code == 550)
        #expect(try await mail.checkRecipient("nobody@privaterelay.appleid.com", sender: "orders@example.com").code == 550)
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            _ = try await ConsolePages.signIn(browser)
            let page = try await browser.get("/console/relay")
            #expect(page.status == .ok)
            let text = page.text
            #expect(text.contains("id=\"source-example.com\""))
            #expect(HTML.element(id: "accepted-example.com", in: text) == "1")
            #expect(HTML.element(id: "refused-example.com", in: text) == "0")
            #expect(HTML.element(id: "accepted-news@example.org", in: text) == "0", "a source with no traffic is listed too")
            #expect(HTML.element(id: "refused-unregistered", in: text) == "2", "senders that are no source of the team")
            #expect(text.contains("Sender not registered for this relay"), "why")
            #expect(text.contains("spam@elsewhere.com"))
            #expect(text.contains("Order &lt;one&gt;"), "the subject, escaped")
            #expect(!text.contains("nobody@privaterelay"), "mail to an address no team has is nobody's traffic")
            #expect(!text.contains(TestServer.maria.email), "never the user's real address")
        }
        #expect(try await server.relay.traffic(teamID: TestServer.otherTeamID).sources.isEmpty)
    }
}

extension ConsoleRelayPageTests {
    @Test("a DKIM key registered on the sources' form turns the check on: unsigned mail is refused, and the Relay page says why")
    func dkimKeyFromConsole() async throws {
        let (server, relay) = try await AccountMailPagesTests.mailServer()
        try await ConsolePages.registerDeveloper(server)
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let record = try String(contentsOf: fixtures.appendingPathComponent("Fixtures/dkim/selector1._domainkey.shop.example.txt"), encoding: .utf8)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let csrf = try await ConsolePages.signIn(browser)
            let saved = try await browser.post("/console/email-sources/dkim", form: [("csrf", csrf), ("value", "example.com"), ("dkim", record)])
            #expect(saved.status == .ok)
            #expect(saved.text.contains("class=\"dkim-status\">On"))
            let bad = try await browser.post("/console/email-sources/dkim", form: [("csrf", csrf), ("value", "example.com"), ("dkim", "not a key")])
            #expect(HTML.element(id: "error", in: bad.text)?.contains("DKIM") == true)

            let answer = try await server.relay.accept(
                sender: "orders@example.com", recipients: [relay], source: Array("From: <orders@example.com>\r\nSubject: Hi\r\n\r\nHi\r\n".utf8))
            #expect(answer.code == 550)
            let page = try await browser.get("/console/relay")
            #expect(HTML.element(id: "refused-example.com", in: page.text) == "1")
            #expect(page.text.contains("5.7.20 Sender not authenticated"))
        }
    }
}
