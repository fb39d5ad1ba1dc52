import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import HummingbirdTesting
import Testing

/// Signs a test browser in to the console as a developer of the test team.
enum ConsolePages {
    static let email = "dev@example.com"
    static let password = "console password"

    static func registerDeveloper(_ server: TestServer, teams: [TeamID] = [TestServer.teamID]) async throws {
        _ = try await server.provider.registerDeveloper(email: email, name: "Dev", password: password, teamIDs: teams)
    }

    /// Runs `body` with a test server whose developer is signed in: the server, the browser, the CSRF token.
    static func signedIn(_ body: @Sendable (TestServer, Browser, String) async throws -> Void) async throws {
        let server = try await TestServer.make()
        try await registerDeveloper(server)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let csrf = try await signIn(browser)
            try await body(server, browser, csrf)
        }
    }

    /// Signs in and answers the CSRF token of the console's forms.
    static func signIn(_ browser: Browser, email: String = email, password: String = password) async throws -> String {
        let page = try await browser.get("/console")
        let login = try #require(HTML.hiddenInputs(page.text)["csrf"])
        let signedIn = try await browser.post("/console/sign-in", form: [("csrf", login), ("email", email), ("password", password)])
        #expect(signedIn.status == .seeOther)
        let identifiers = try await browser.get("/console/identifiers")
        return try #require(HTML.hiddenInputs(identifiers.text)["csrf"])
    }

    /// The path of the first invitation link in a page or a mail.
    static func invitationLink(in html: String) -> String? {
        guard let start = html.range(of: "/console/invitations/") else { return nil }
        let token = html[start.upperBound...].prefix(while: { $0.isHexDigit })
        return token.isEmpty ? nil : "/console/invitations/" + token
    }

    /// The link of the newest invitation mailed to `email`, read as its owner reads it (the held mail).
    static func mailedInvitationLink(to email: String, on server: TestServer) async throws -> String {
        let newest = try #require(try await server.relay.messages(.address(email)).first)
        let mail = try #require(try await server.relay.message(id: newest.message.id))
        return try #require(invitationLink(in: mail.body))
    }

    /// Opens an invitation in a browser that has no console account and creates one with it.
    @discardableResult
    static func acceptAsNewDeveloper(_ browser: Browser, link: String, name: String, password: String) async throws -> TestResponse {
        let page = try await browser.get(link)
        let csrf = try #require(HTML.hiddenInputs(page.text)["csrf"])
        return try await browser.post(link, form: [("csrf", csrf), ("name", name), ("password", password), ("confirm", password)])
    }
}
