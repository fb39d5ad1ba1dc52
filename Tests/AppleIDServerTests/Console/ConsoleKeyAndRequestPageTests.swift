import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import HummingbirdTesting
import Testing

@Suite("Console pages: Keys, Requests, Notifications and e-mail, Transfer")
struct ConsoleKeyAndRequestPageTests {
    @Test("a key's .p8 downloads once; after revocation its secrets are refused and the Requests page says why")
    func keys() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let csrf = try await ConsolePages.signIn(browser)
            let created = try await browser.post(
                "/console/keys", form: [("csrf", csrf), ("name", "Web key"), ("primary_app_id", TestServer.bundleID.rawValue)])
            let kid = try #require(
                try await server.provider.developerKeys(teamID: TestServer.teamID).first { $0.id != TestServer.keyID }?.id)
            #expect(created.headers[.location] == "/console/keys/\(kid)/download")
            #expect(try await browser.get("/console/keys/\(kid)/download").text.contains("id=\"download-\(kid)\""))
            let download = try await browser.post("/console/keys/\(kid)/download", form: [("csrf", csrf)])
            #expect(download.status == .ok)
            #expect(download.headers[.contentDisposition] == "attachment; filename=\"AuthKey_\(kid).p8\"")
            let pem = download.text
            #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
            let again = try await browser.post("/console/keys/\(kid)/download", form: [("csrf", csrf)])
            #expect(again.status == .badRequest)
            #expect(!again.text.contains("BEGIN PRIVATE KEY"))
            #expect(try await browser.get("/console/keys/\(kid)/download").text.contains("Downloaded; it cannot be downloaded again."))

            let secret = try await ClientSecretMinter(teamID: TestServer.teamID, keyID: kid, privateKeyPEM: pem)
                .mint(clientID: TestServer.servicesID, audience: TestServer.issuer, issuedAt: server.clock.now(), lifetime: 300)
            #expect(try await RP.revoke(client, token: "unknown", secret: secret).status == .ok)
            #expect(try await browser.post("/console/keys/\(kid)/revoke", form: [("csrf", csrf)]).status == .ok)
            #expect(try await RP.revoke(client, token: "unknown", secret: secret).status == .badRequest)
            let requests = try await browser.get("/console/requests?client_id=\(TestServer.servicesID.rawValue)")
            #expect(requests.text.contains("client secret kid \(kid) names a key revoked at"))
            #expect(!requests.text.contains(secret))
        }
    }

    @Test("a key for another team's App ID is refused with the console's 404 page, not a 500")
    func keyForAnotherTeamsAppID() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let csrf = try await ConsolePages.signIn(browser)
            let refused = try await browser.post("/console/keys", form: [("csrf", csrf), ("name", "Key"), ("primary_app_id", "com.other.app")])
            #expect(refused.status == .notFound, "\(refused.status)")
            #expect(refused.text.contains("Your team has no primary App ID com.other.app."))
            let keys = try await server.provider.developerKeys(teamID: TestServer.teamID)
            #expect(keys.map(\.id) == [TestServer.keyID], "no key was made")
        }
    }

    @Test("the Requests page explains a wrong client secret and a redirect_uri that differs, and shows no secret or code")
    func requests() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            let code = try await RP.code(client)
            let wrongTeam = try await Secrets.es256(Secrets.claims(issuer: "WRONGTEAM1"))
            let refused = try await RP.redeem(client, code: code, secret: wrongTeam)
            #expect(refused.status == .badRequest)
            let authorize = try await client.execute(
                uri:
                    "/auth/authorize?client_id=\(TestServer.servicesID.rawValue)&redirect_uri=https%3A%2F%2Fjuice.example.com%2Fcallback&response_type=code",
                method: .get)
            #expect(authorize.status == .badRequest)
            let browser = Browser(client)
            _ = try await ConsolePages.signIn(browser)
            let page = try await browser.get("/console/requests?client_id=\(TestServer.servicesID.rawValue)")
            #expect(
                page.text.contains("client secret: iss is &quot;WRONGTEAM1&quot;, expected the Team ID &quot;\(TestServer.teamID)&quot;"),
                "\(page.text)")
            #expect(
                page.text.contains(
                    "redirect_uri https://juice.example.com/callback is not a registered Return URL of com.example.juice.web: differs from the registered https://juice.example.com/auth/callback only by its path (/callback instead of /auth/callback)"
                ))
            #expect(page.text.contains("<code>/auth/token</code>"))
            #expect(!page.text.contains(code))
            #expect(!page.text.contains(wrongTeam))
        }
    }

    @Test("notification endpoint and e-mail sources are set on their page by the engine's rules")
    func notifications() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let csrf = try await ConsolePages.signIn(browser)
            let saved = try await browser.post(
                "/console/notifications/endpoint",
                form: [("csrf", csrf), ("group_id", TestServer.bundleID.rawValue), ("url", "https://juice.example.com/apple/notifications")])
            #expect(saved.status == .ok)
            #expect(
                try await server.provider.registeredAppGroup(TestServer.bundleID)?.notificationEndpoint
                    == "https://juice.example.com/apple/notifications"
            )
            let sources = try await browser.post(
                "/console/email-sources", form: [("csrf", csrf), ("sources", "mail.juice.example.com, hello@juice.example.com")])
            #expect(sources.text.contains("(2 / 100)"))
            let bad = try await browser.post("/console/email-sources", form: [("csrf", csrf), ("sources", "https://x.example.com")])
            #expect(bad.status == .badRequest)
        }
    }

    @Test("a transfer is an offer: nothing moves until a developer of the recipient team accepts it; then the 60-day window starts")
    func transferOffer() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        _ = try await server.provider.registerDeveloper(
            email: "recipient@example.com", name: "Recipient", password: "recipient password", teamIDs: [TestServer.otherTeamID])
        try await server.arrange.plant(DeveloperTeam(id: "THIRDTEAM1", name: "Third"))
        _ = try await server.provider.registerDeveloper(
            email: "third@example.com", name: "Third", password: "third password", teamIDs: ["THIRDTEAM1"])
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let csrf = try await ConsolePages.signIn(browser)
            let offered = try await browser.post(
                "/console/transfer", form: [("csrf", csrf), ("group_id", TestServer.bundleID.rawValue), ("team_id", TestServer.otherTeamID.rawValue)])
            #expect(offered.status == .ok)
            #expect(try await server.provider.registeredAppGroup(TestServer.bundleID)?.teamID == TestServer.teamID, "an offer moves nothing")
            #expect(offered.text.contains("id=\"outgoing-offers\""))

            // A developer of a third team cannot take it.
            let third = Browser(client)
            let thirdCSRF = try await ConsolePages.signIn(third, email: "third@example.com", password: "third password")
            let stolen = try await third.post("/console/transfer/accept", form: [("csrf", thirdCSRF), ("group_id", TestServer.bundleID.rawValue)])
            #expect(stolen.status == .notFound)
            #expect(try await server.provider.registeredAppGroup(TestServer.bundleID)?.teamID == TestServer.teamID)

            let recipient = Browser(client)
            let recipientCSRF = try await ConsolePages.signIn(recipient, email: "recipient@example.com", password: "recipient password")
            let page = try await recipient.get("/console/transfer")
            let incoming = try #require(page.text.range(of: "id=\"incoming-offers\"")).upperBound
            #expect(page.text[incoming...].contains(TestServer.bundleID.rawValue) && page.text[incoming...].contains(TestServer.teamID.rawValue))
            server.clock.advance(by: 3_600)
            let accepted = try await recipient.post(
                "/console/transfer/accept", form: [("csrf", recipientCSRF), ("group_id", TestServer.bundleID.rawValue)])
            #expect(accepted.status == .ok)
            #expect(try await server.provider.registeredAppGroup(TestServer.bundleID)?.teamID == TestServer.otherTeamID)
            #expect(accepted.text.contains("(60 days left)"))
            let transfer = try #require(try await server.provider.transfers(teamID: TestServer.otherTeamID).first)
            #expect(transfer.transferredAt == server.clock.now(), "the window starts at acceptance")
            let again = try await recipient.post(
                "/console/transfer/accept", form: [("csrf", recipientCSRF), ("group_id", TestServer.bundleID.rawValue)])
            #expect(again.status == .notFound)
        }
    }

    @Test("the sender withdraws an offer and the recipient declines one; neither moves anything")
    func transferOfferWithdrawnOrDeclined() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        _ = try await server.provider.registerDeveloper(
            email: "recipient@example.com", name: "Recipient", password: "recipient password", teamIDs: [TestServer.otherTeamID])
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let csrf = try await ConsolePages.signIn(browser)
            let offer = [("csrf", csrf), ("group_id", TestServer.bundleID.rawValue), ("team_id", TestServer.otherTeamID.rawValue)]
            _ = try await browser.post("/console/transfer", form: offer)
            let withdrawn = try await browser.post("/console/transfer/withdraw", form: [("csrf", csrf), ("group_id", TestServer.bundleID.rawValue)])
            #expect(withdrawn.status == .ok)
            let recipient = Browser(client)
            let recipientCSRF = try await ConsolePages.signIn(recipient, email: "recipient@example.com", password: "recipient password")
            let late = try await recipient.post(
                "/console/transfer/accept", form: [("csrf", recipientCSRF), ("group_id", TestServer.bundleID.rawValue)])
            #expect(late.status == .notFound)
            _ = try await browser.post("/console/transfer", form: offer)
            let declined = try await recipient.post(
                "/console/transfer/decline", form: [("csrf", recipientCSRF), ("group_id", TestServer.bundleID.rawValue)])
            #expect(declined.status == .ok)
            #expect(try await server.provider.transferOffers(teamID: TestServer.teamID).isEmpty)
            #expect(try await server.provider.registeredAppGroup(TestServer.bundleID)?.teamID == TestServer.teamID)
        }
    }
}

@Suite("Admin API: the console's operations for scripts")
struct ConsoleAdminTests {
    @Test("POST /admin/keys/{kid}/revoke revokes as the console does; an unknown key is a 404")
    func revokeKey() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let secret = try await server.clientSecret()
            #expect(try await RP.revoke(client, token: "unknown", secret: secret).status == .ok)
            let revoked = try await client.execute(uri: "/admin/keys/\(TestServer.keyID)/revoke", method: .post, headers: RP.adminHeaders)
            #expect(revoked.status == .noContent)
            #expect(try await server.provider.console(team: TestServer.teamID).developerKey(TestServer.keyID)?.revokedAt == server.clock.now())
            #expect(try await RP.revoke(client, token: "unknown", secret: secret).status == .badRequest)
            let unknown = try await client.execute(uri: "/admin/keys/NOSUCHKEY1/revoke", method: .post, headers: RP.adminHeaders)
            #expect(unknown.status == .notFound)
            #expect(try await client.execute(uri: "/admin/keys/\(TestServer.keyID)/revoke", method: .post).status == .unauthorized)
        }
    }
}
