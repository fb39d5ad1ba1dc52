import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import HummingbirdTesting
import ServerTestSupport
import Testing

/// The Account page's "Your teams" table, and console templates with no English of their own.
@Suite("Console account: teams by name, in the page's language")
struct ConsoleAccountTeamsTests {
    @Test("Your teams lists each team by name with its Team ID, under translated headers")
    func teamsByName() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server, teams: [TestServer.teamID, TestServer.otherTeamID])
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            _ = try await ConsolePages.signIn(browser)
            browser.acceptLanguage = "cs"
            let page = try await browser.get("/console/account")
            #expect(page.text.contains("<td>Juice Team</td><td><code>\(TestServer.teamID.rawValue)</code></td>"))
            #expect(page.text.contains("<td>Other Team</td><td><code>\(TestServer.otherTeamID.rawValue)</code></td>"))
            #expect(!page.text.contains("<th>Team ID</th>"))
        }
    }

    @Test("no console template writes visible English of its own: every word comes from the locale files")
    func noLiteralText() throws {
        let templates = Fixtures.packageRoot.appendingPathComponent("Sources/AppleIDServer/Templates")
        let files = try FileManager.default.contentsOfDirectory(atPath: templates.path).filter { $0.hasPrefix("console") }.sorted()
        #expect(files.count > 10)
        for file in files {
            let text = try String(contentsOf: templates.appendingPathComponent(file), encoding: .utf8)
            let visible = text.replacing(#/<style>[\s\S]*?</style>|<script>[\s\S]*?</script>/#, with: "")
                .replacing(#/\{\{[^}]*\}\}/#, with: " ").replacing(#/<[^>]*>/#, with: " ")
            let words = visible.split(whereSeparator: { !$0.isLetter }).filter { $0.count > 1 }
            #expect(words.isEmpty, "\(file): \(words)")
        }
    }
}
