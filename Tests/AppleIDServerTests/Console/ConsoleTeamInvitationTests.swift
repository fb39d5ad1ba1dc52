import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import HummingbirdTesting
import Testing

@Suite("Console Team page: members join by invitation, never with a password someone else chose")
struct ConsoleTeamInvitationTests {
    static let attacker = (email: "mallory@evil.example", password: "mallory password")

    @Test("a developer of another team cannot pre-register a victim's e-mail and ride into the victim's team when it adds that e-mail")
    func hijackThroughTeamPageIsClosed() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        _ = try await server.provider.registerDeveloper(
            email: Self.attacker.email, name: "Mallory", password: Self.attacker.password, teamIDs: [TestServer.otherTeamID])
        try await server.app.test(.router) { client in
            // The attacker "adds" the victim's CTO to their own team, with a password of their choosing, and
            // follows whatever the page hands back (an invitation link, if there is one).
            let attacker = Browser(client)
            let attackerCSRF = try await ConsolePages.signIn(attacker, email: Self.attacker.email, password: Self.attacker.password)
            let planted = try await attacker.post(
                "/console/members",
                form: [("csrf", attackerCSRF), ("email", "cto@victim.example"), ("name", "CTO"), ("password", "attacker chosen 1")])
            #expect(ConsolePages.invitationLink(in: planted.text) == nil, "the link goes to cto@victim.example's mail, not to the inviter")
            if let link = ConsolePages.invitationLink(in: planted.text) {
                try await ConsolePages.acceptAsNewDeveloper(Browser(client), link: link, name: "CTO", password: "attacker chosen 1")
            }
            // Later the victim's team adds the same e-mail.
            let victim = Browser(client)
            let victimCSRF = try await ConsolePages.signIn(victim)
            _ = try await victim.post("/console/members", form: [("csrf", victimCSRF), ("email", "cto@victim.example")])

            // The attacker's password opens no door into the victim's team.
            #expect(try await !server.provider.members(of: TestServer.teamID).map(\.email).contains("cto@victim.example"))
            // Nor any door at all: the address has no account until its owner opens their own mail.
            let thief = Browser(client)
            let page = try await thief.get("/console")
            let csrf = try #require(HTML.hiddenInputs(page.text)["csrf"])
            let signIn = try await thief.post(
                "/console/sign-in", form: [("csrf", csrf), ("email", "cto@victim.example"), ("password", "attacker chosen 1")])
            #expect(signIn.status == .unauthorized)
            #expect(try await thief.get("/console/identifiers").status == .seeOther, "not signed in")
        }
    }
}
