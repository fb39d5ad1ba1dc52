import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import HummingbirdTesting
import Testing

@Suite("Console pages: sign-in, Identifiers, CSRF")
struct ConsoleIdentifierPageTests {
    @Test("a developer signs in, registers a Services ID with its domain and a development Return URL, and sees it marked")
    func servicesID() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let csrf = try await ConsolePages.signIn(browser)
            let created = try await browser.post(
                "/console/services-ids",
                form: [
                    ("csrf", csrf), ("description", "Shop web"), ("identifier", "com.example.juice.shop"),
                    ("primary_app_id", TestServer.bundleID.rawValue), ("domains", "shop.example.com"),
                    ("return_urls", "https://shop.example.com/auth/apple\nhttp://127.0.0.1:9999/callback"),
                ])
            #expect(created.status == .seeOther)
            let page = try await browser.get("/console/services-ids/com.example.juice.shop")
            #expect(page.text.contains("http://127.0.0.1:9999/callback</code></td><td><span class=\"badge\">development only"))
            let client = try #require(try await server.provider.registeredClient("com.example.juice.shop"))
            #expect(client.returnURLs == ["https://shop.example.com/auth/apple", "http://127.0.0.1:9999/callback"])
            #expect(client.domains == ["shop.example.com"])
            #expect(client.groupID == TestServer.bundleID)

            let refused = try await browser.post(
                "/console/services-ids/com.example.juice.shop",
                form: [("csrf", csrf), ("primary_app_id", TestServer.bundleID.rawValue), ("return_urls", "https://203.0.113.9/cb")])
            #expect(refused.status == .badRequest)
            #expect(HTML.element(id: "error", in: refused.text) == "https://203.0.113.9/cb: IP addresses are not allowed. Use a domain name.")

            let gone = try await browser.post("/console/services-ids/com.example.juice.shop/disassociate", form: [("csrf", csrf)])
            #expect(gone.status == .ok)
            #expect(try await server.provider.registeredClient("com.example.juice.shop")?.returnURLs == [])
        }
    }

    @Test("editing a Services ID with users shows its authorization count")
    func authorizationCount() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            _ = try await RP.authorize(client)
            let browser = Browser(client)
            _ = try await ConsolePages.signIn(browser)
            let page = try await browser.get("/console/services-ids/\(TestServer.servicesID.rawValue)")
            #expect(page.text.contains("<p class=\"hint\" id=\"authorizations\">Users who authorized this Services ID: <strong>1</strong>"))
        }
    }

    @Test("every console POST needs the session's CSRF token; without it nothing changes")
    func csrf() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            _ = try await ConsolePages.signIn(browser)
            let fields = [("description", "X"), ("identifier", "com.example.forged"), ("primary_app_id", TestServer.bundleID.rawValue)]
            for form in [fields, [("csrf", "forged")] + fields] {
                let forged = try await browser.post("/console/services-ids", form: form)
                #expect(forged.status == .forbidden)
            }
            for path in ["/console/keys", "/console/services-ids/\(TestServer.servicesID.rawValue)/disassociate", "/console/email-sources"] {
                #expect(
                    try await browser.post(path, form: [("csrf", "forged"), ("primary_app_id", TestServer.bundleID.rawValue)]).status == .forbidden)
            }
            #expect(try await server.provider.registeredClient("com.example.forged") == nil)
            #expect(try await server.provider.developerKeys(teamID: TestServer.teamID).count == 1)
            #expect(try await server.provider.registeredClient(TestServer.servicesID)?.isAssociated == true)
        }
    }

    @Test("the sign-in form needs its login token; a wrong password is refused; signed out, pages go back to sign-in")
    func signIn() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let noToken = try await browser.post("/console/sign-in", form: [("email", ConsolePages.email), ("password", ConsolePages.password)])
            #expect(noToken.status == .badRequest)
            let login = try #require(HTML.hiddenInputs(try await browser.get("/console").text)["csrf"])
            let wrong = try await browser.post("/console/sign-in", form: [("csrf", login), ("email", ConsolePages.email), ("password", "nope")])
            #expect(wrong.status == .unauthorized)
            #expect(try await browser.get("/console/keys").status == .seeOther)
            let csrf = try await ConsolePages.signIn(browser)
            #expect(try await browser.get("/console/keys").status == .ok)
            #expect(try await browser.post("/console/sign-out", form: [("csrf", csrf)]).status == .seeOther)
            #expect(try await browser.get("/console/keys").status == .seeOther)
        }
    }

    @Test("a developer sees only the current team's identifiers and switches teams")
    func teams() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server, teams: [TestServer.otherTeamID, TestServer.teamID])
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let csrf = try await ConsolePages.signIn(browser)
            #expect(try await browser.get("/console/services-ids/\(TestServer.servicesID.rawValue)").status == .notFound)
            #expect(try await browser.post("/console/team", form: [("csrf", csrf), ("team_id", TestServer.teamID.rawValue)]).status == .seeOther)
            let page = try await browser.get("/console/identifiers?type=services")
            #expect(HTML.element(id: "team-name", in: page.text) == "Juice Team")
            #expect(page.text.contains(TestServer.servicesID.rawValue))
        }
    }

    @Test("the team switcher names each team, with its Team ID beside the name")
    func teamSwitcherNamesTeams() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server, teams: [TestServer.otherTeamID, TestServer.teamID])
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            _ = try await ConsolePages.signIn(browser)
            let page = try await browser.get("/console/identifiers")
            #expect(page.text.contains("<option value=\"\(TestServer.teamID.rawValue)\">Juice Team (\(TestServer.teamID.rawValue))</option>"))
            #expect(
                page.text.contains(
                    "<option value=\"\(TestServer.otherTeamID.rawValue)\" selected>Other Team (\(TestServer.otherTeamID.rawValue))</option>"))
        }
    }
}
