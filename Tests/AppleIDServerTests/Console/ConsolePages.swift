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

    /// Signs in and answers the CSRF token of the console's forms.
    static func signIn(_ browser: Browser) async throws -> String {
        let page = try await browser.get("/console")
        let login = try #require(HTML.hiddenInputs(page.text)["csrf"])
        let signedIn = try await browser.post("/console/sign-in", form: [("csrf", login), ("email", email), ("password", password)])
        #expect(signedIn.status == .seeOther)
        let identifiers = try await browser.get("/console/identifiers")
        return try #require(HTML.hiddenInputs(identifiers.text)["csrf"])
    }
}
