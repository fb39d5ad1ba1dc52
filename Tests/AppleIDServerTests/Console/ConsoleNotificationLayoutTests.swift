import AppleIDConsole
import AppleIDEmailSources
import AppleIDProtocol
import AppleIDProvider
import Foundation
import HummingbirdTesting
import ServerTestSupport
import Testing

/// How the Notifications and Keys pages read: every column named, no latency for a message that was
/// never answered, the endpoint's Save button beside its field, table text wrapped between words.
@Suite("Console Notifications and Keys pages: headers, latency and layout")
struct ConsoleNotificationLayoutTests {
    @Test("a message never answered shows no latency: not “0 ms” but a dash, beside its reason")
    func neverSentHasNoLatency() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        let message = OutboxMessage(
            id: "never-sent", groupID: TestServer.bundleID, audience: TestServer.bundleID,
            event: NotificationEvent(type: .consentRevoked, subject: "0001.never.0001", eventTime: 1_000), createdAt: Fixtures.now)
        try await server.arrange.plant(message)
        var attempted = message
        attempted.attempts = 1
        try await server.arrange.plant(
            DeliveryAttempt(
                messageID: message.id, attemptedAt: Fixtures.now, status: nil, latencyMilliseconds: 0, error: "no endpoint registered",
                endpoint: ""),
            updating: attempted)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            _ = try await ConsolePages.signIn(browser)
            let page = try await browser.get("/console/notifications")
            let row = try #require(page.text.firstMatch(of: #/<tr><td>consent-revoked</td>.*?</tr>/#).map { String($0.0) })
            #expect(!row.contains("0 ms"), "\(row)")
            #expect(row.hasSuffix("<td>no endpoint registered</td><td>—</td></tr>"), "\(row)")
        }
    }

    @Test("every column of the Keys and Notifications tables has a header")
    func everyColumnHasAHeader() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        _ = try await server.provider.addEmailSources("mail.juice.example.com", teamID: TestServer.teamID)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            _ = try await ConsolePages.signIn(browser)
            for path in ["/console/keys", "/console/notifications"] {
                let page = try await browser.get(path)
                #expect(page.text.contains("<table"), "\(path) shows a table")
                #expect(!page.text.contains("<th></th>"), "\(path) has a column without a header")
            }
        }
    }

    @Test("the endpoint's Save button sits beside its field, and table text wraps between words, not inside them")
    func endpointRowAndWrapping() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            _ = try await ConsolePages.signIn(browser)
            let page = try await browser.get("/console/notifications")
            let form = try #require(
                page.text.firstMatch(of: #/<form [^>]*class="endpoint"[^>]*>.*?</form>/#.dotMatchesNewlines()).map { String($0.0) })
            #expect(form.contains("<div class=\"field-row\"><input type=\"text\""), "\(form)")
            #expect(form.contains("</button></div>"))
            #expect(!page.text.contains("td { overflow-wrap: anywhere; }"), "a cell may break inside a word only when the word alone is too wide")
        }
    }
}
