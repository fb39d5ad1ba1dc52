import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import HummingbirdTesting
import NIOCore
import Testing

@Suite("Console Team page and the admin API of console-only actions")
struct ConsoleMemberAndAdminTests {
    @Test("the Team page invites by e-mail: no account is made, the link goes by mail only, the form needs its CSRF token")
    func teamPage() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let csrf = try await ConsolePages.signIn(browser)
            let page = try await browser.get("/console/members")
            #expect(page.text.contains("<code>\(ConsolePages.email)</code>"))
            #expect(!page.text.contains("name=\"password\""), "nobody chooses another person's password")
            let invited = try await browser.post(
                "/console/members", form: [("csrf", csrf), ("email", "Colleague@Example.com"), ("password", "initial secret 42")])
            #expect(invited.status == .ok)
            #expect(invited.text.contains("An invitation was sent to colleague@example.com. The link in it works once and expires in 7 days."))
            #expect(ConsolePages.invitationLink(in: invited.text) == nil, "the inviter never sees the link")
            let link = try await ConsolePages.mailedInvitationLink(to: "colleague@example.com", on: server)
            #expect(try await server.provider.members(of: TestServer.teamID).map(\.email) == [ConsolePages.email])
            let listed = try await browser.get("/console/members")
            let pending = try #require(listed.text.range(of: "id=\"invitations\"")).upperBound
            #expect(listed.text[pending...].contains("<code>colleague@example.com</code>"))
            #expect(ConsolePages.invitationLink(in: listed.text) == nil, "nor later")
            let forged = try await browser.post("/console/members", form: [("csrf", "wrong"), ("email", "x@example.com")])
            #expect(forged.status == .forbidden)
            #expect(try await server.provider.pendingInvitations(teamID: TestServer.teamID).map(\.email) == ["colleague@example.com"])

            // The colleague opens the link in their own browser and chooses their own password.
            let colleague = Browser(client)
            let opened = try await colleague.get(link)
            #expect(opened.text.contains("Juice Team") && opened.text.contains("colleague@example.com"))
            let mismatch = try await colleague.post(
                link,
                form: [
                    ("csrf", try #require(HTML.hiddenInputs(opened.text)["csrf"])), ("name", "Colleague"), ("password", "colleague secret"),
                    ("confirm", "colleague secreT"),
                ])
            #expect(mismatch.status == .badRequest)
            let joined = try await ConsolePages.acceptAsNewDeveloper(colleague, link: link, name: "Colleague", password: "colleague secret")
            #expect(joined.status == .seeOther)
            #expect(try await colleague.get("/console/identifiers").text.contains("Juice Team"))
            #expect(try await server.provider.members(of: TestServer.teamID).map(\.email) == ["colleague@example.com", ConsolePages.email])
            let reused = try await colleague.get(link)
            #expect(reused.status == .notFound)
            #expect(reused.text.contains("This invitation has been used, withdrawn or has expired."))

            // Withdrawing a pending invitation kills its link.
            _ = try await browser.post("/console/members", form: [("csrf", csrf), ("email", "later@example.com")])
            let secondLink = try await ConsolePages.mailedInvitationLink(to: "later@example.com", on: server)
            let withdrawn = try await browser.post("/console/members/withdraw", form: [("csrf", csrf), ("email", "later@example.com")])
            #expect(withdrawn.text.contains("The invitation for later@example.com was withdrawn."))
            #expect(try await Browser(client).get(secondLink).status == .notFound)
        }
    }

    @Test("an existing developer accepts an invitation with their own password; a cross-site post without the form token is refused")
    func existingDeveloperAccepts() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        _ = try await server.provider.registerDeveloper(
            email: "ann@example.com", name: "Ann", password: "ann password", teamIDs: [TestServer.otherTeamID])
        _ = try await server.provider.inviteTeamMember(
            email: "ann@example.com", teamID: TestServer.teamID, invitedBy: "dev", linkBase: "", mail: server.relay)
        let link = try await ConsolePages.mailedInvitationLink(to: "ann@example.com", on: server)
        try await server.app.test(.router) { client in
            let ann = Browser(client)
            let page = try await ann.get(link)
            #expect(page.text.contains("This address has a developer account."))
            #expect(!page.text.contains("name=\"confirm\""))
            let csrf = try #require(HTML.hiddenInputs(page.text)["csrf"])
            let crossSite = try await Browser(client).post(link, form: [("csrf", csrf), ("password", "ann password")])
            #expect(crossSite.status == .badRequest, "the form token belongs to the browser that opened the page")
            let wrong = try await ann.post(link, form: [("csrf", csrf), ("password", "not ann's")])
            #expect(wrong.status == .unauthorized)
            #expect(try await server.provider.members(of: TestServer.teamID).map(\.email) == [ConsolePages.email])
            let accepted = try await ann.post(link, form: [("csrf", csrf), ("password", "ann password")])
            #expect(accepted.status == .seeOther)
            #expect(try await server.provider.members(of: TestServer.teamID).map(\.email) == ["ann@example.com", ConsolePages.email])
        }
    }

    @Test("the Account page changes the password (other browsers signed out), signs out other browsers, and leaves a team")
    func accountPage() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server, teams: [TestServer.teamID, TestServer.otherTeamID])
        _ = try await server.provider.registerDeveloper(email: "bob@example.com", name: "Bob", password: "bob password", teamIDs: [TestServer.teamID])
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let csrf = try await ConsolePages.signIn(browser)
            let other = Browser(client)
            _ = try await ConsolePages.signIn(other)
            let page = try await browser.get("/console/account")
            #expect(page.text.contains("change-password") && page.text.contains(ConsolePages.email))
            let differ = try await browser.post(
                "/console/account/password",
                form: [("csrf", csrf), ("current", ConsolePages.password), ("password", "brand new pass"), ("confirm", "brand new pasS")])
            #expect(differ.status == .badRequest)
            let wrong = try await browser.post(
                "/console/account/password",
                form: [("csrf", csrf), ("current", "guess"), ("password", "brand new pass"), ("confirm", "brand new pass")])
            #expect(wrong.status == .unauthorized)
            let changed = try await browser.post(
                "/console/account/password",
                form: [("csrf", csrf), ("current", ConsolePages.password), ("password", "brand new pass"), ("confirm", "brand new pass")])
            #expect(changed.text.contains("Your password is changed. Every other browser is signed out."))
            #expect(try await other.get("/console/identifiers").status == .seeOther, "the other browser is signed out")
            #expect(try await browser.get("/console/identifiers").status == .ok)
            let third = Browser(client)
            _ = try await ConsolePages.signIn(third, password: "brand new pass")
            let signedOut = try await browser.post("/console/account/sign-out-others", form: [("csrf", csrf)])
            #expect(signedOut.text.contains("Other browsers signed out: 1."))
            #expect(try await third.get("/console/identifiers").status == .seeOther)
            let left = try await browser.post("/console/account/leave", form: [("csrf", csrf), ("team_id", TestServer.teamID.rawValue)])
            #expect(left.headers[.location] == "/console/account?left=\(TestServer.teamID.rawValue)")
            #expect(
                try await browser.get("/console/account?left=\(TestServer.teamID.rawValue)").text.contains("You left \(TestServer.teamID.rawValue)."))
            #expect(try await server.provider.members(of: TestServer.teamID).map(\.email) == ["bob@example.com"])
            let onlyTeam = try await browser.post("/console/account/leave", form: [("csrf", csrf), ("team_id", TestServer.otherTeamID.rawValue)])
            #expect(onlyTeam.status == .badRequest)
        }
    }

    @Test("admin: create a developer, add one to a team, send a test notification, add and check e-mail sources")
    func adminOperations() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            func post(_ path: String, _ json: String = "{}") async throws -> TestResponse {
                var headers = RP.adminHeaders
                headers[.contentType] = "application/json"
                return try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: json))
            }
            let created = try await post(
                "/admin/developers", #"{"email":"dev@example.com","name":"Dev","password":"long enough","team_ids":["\#(TestServer.teamID)"]}"#)
            #expect(created.status == .ok)
            #expect(String(buffer: created.body).contains(#""team_ids":["TEAM123456"]"#))
            #expect(!String(buffer: created.body).contains("$2"), "never the password hash")
            let joined = try await post("/admin/teams/\(TestServer.otherTeamID.rawValue)/developers", #"{"email":"dev@example.com"}"#)
            #expect(String(buffer: joined.body).contains(#""team_ids":["TEAM123456","OTHER12345"]"#))
            let noEndpoint = try await post("/admin/app-groups/\(TestServer.bundleID.rawValue)/test-notification")
            #expect(noEndpoint.status == .badRequest)
            _ = try await server.provider.setNotificationEndpoint("https://juice.example.com/apple", groupID: TestServer.bundleID, teamID: nil)
            let sent = try await post("/admin/app-groups/\(TestServer.bundleID.rawValue)/test-notification")
            #expect(sent.status == .ok)
            #expect(String(buffer: sent.body).contains(#""type":"test""#))
            let sources = try await post("/admin/teams/\(TestServer.teamID.rawValue)/email-sources", #"{"sources":"mail.example.com"}"#)
            #expect(String(buffer: sources.body).contains(#""check":"not-checked""#))
            let checked = try await post("/admin/teams/\(TestServer.teamID.rawValue)/email-sources/check")
            #expect(String(buffer: checked.body).contains(#""check":"lookup-failed""#))
            #expect(try await client.execute(uri: "/admin/developers", method: .post).status == .unauthorized)
        }
    }

    @Test("admin: Send test notification is rate-limited like the console's button, with the same message")
    func adminTestNotificationLimit() async throws {
        let server = try await TestServer.make()
        _ = try await server.provider.setNotificationEndpoint("https://juice.example.com/apple", groupID: TestServer.bundleID, teamID: nil)
        try await server.app.test(.router) { client in
            let path = "/admin/app-groups/\(TestServer.bundleID.rawValue)/test-notification"
            for _ in 0..<5 { #expect(try await client.execute(uri: path, method: .post, headers: RP.adminHeaders).status == .ok) }
            let limited = try await client.execute(uri: path, method: .post, headers: RP.adminHeaders)
            #expect(limited.status == .badRequest)
            #expect(String(buffer: limited.body).contains("at most 5 test notifications a minute"))
        }
    }
}
