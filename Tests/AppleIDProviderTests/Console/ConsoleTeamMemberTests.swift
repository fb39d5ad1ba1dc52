import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation
import Testing

@Suite("Team members: people join by invitation with their own password; the operator's direct path")
struct ConsoleTeamMemberTests {
    @Test("an invitation creates no account; the invited person creates theirs with a password of their own, once")
    func newDeveloperAccepts() async throws {
        let harness = try await ProviderHarness.make()
        let issued = try await harness.invite(" New@Example.com ", teamID: "TEAMAAAAAA", by: "dev-1")
        #expect(issued.invitation.email == "new@example.com")
        #expect(issued.invitation.expiresAt == ProviderHarness.now.addingTimeInterval(7 * 86_400))
        #expect(try await harness.store.developer(email: "new@example.com") == nil, "inviting makes no account")
        #expect(try await harness.store.invitation(idHash: issued.token) == nil, "only the token's hash is stored")
        let details = try #require(try await harness.provider.invitation(token: issued.token))
        #expect(details.team.id == "TEAMAAAAAA" && details.email == "new@example.com" && !details.hasAccount)

        await #expect(throws: ConsoleError.invalid("Choose a password of 8 characters or more.")) {
            _ = try await harness.provider.acceptInvitation(token: issued.token, name: "New", password: "short")
        }
        let signIn = try await harness.provider.acceptInvitation(token: issued.token, name: " New ", password: "my own password")
        #expect(signIn.session.teamID == "TEAMAAAAAA")
        #expect(try await harness.provider.members(of: "TEAMAAAAAA").map(\.name) == ["New"])
        guard case .passed = try await harness.provider.signInDeveloper(email: "new@example.com", password: "my own password") else {
            Issue.record("the new member cannot sign in with the password they chose")
            return
        }
        await #expect(throws: AppleIDProvider.invitationGone) {
            _ = try await harness.provider.acceptInvitation(token: issued.token, name: "Again", password: "another password")
        }
        #expect(try await harness.provider.invitation(token: issued.token) == nil)
    }

    @Test("an existing account joins only when its owner gives its password; the invitation names the account")
    func existingDeveloperAccepts() async throws {
        let harness = try await ProviderHarness.make()
        _ = try await harness.provider.registerDeveloper(email: "ann@example.com", name: "Ann", password: "ann password", teamIDs: ["TEAMBBBBBB"])
        let issued = try await harness.invite("ann@example.com", teamID: "TEAMAAAAAA", by: "dev-1")
        #expect(try await harness.provider.invitation(token: issued.token)?.hasAccount == true)
        #expect(try await harness.store.developer(email: "ann@example.com")?.teamIDs == ["TEAMBBBBBB"], "nobody joins by being invited")
        await #expect(throws: ConsoleError.self) {
            _ = try await harness.provider.acceptInvitation(token: issued.token, name: "Mallory", password: "mallory's choice")
        }
        guard case .incorrect = try await harness.provider.acceptInvitation(token: issued.token, password: "wrong password") else {
            Issue.record("a wrong password accepted the invitation")
            return
        }
        #expect(try await harness.store.developer(email: "ann@example.com")?.teamIDs == ["TEAMBBBBBB"])
        guard case .passed(let signIn) = try await harness.provider.acceptInvitation(token: issued.token, password: "ann password") else {
            Issue.record("the owner's password did not accept the invitation")
            return
        }
        #expect(signIn.session.teamID == "TEAMAAAAAA")
        #expect(try await harness.store.developer(email: "ann@example.com")?.teamIDs == ["TEAMBBBBBB", "TEAMAAAAAA"])
        await #expect(throws: ConsoleError.refused("ann@example.com is already a member of TEAMAAAAAA.")) {
            _ = try await harness.invite("ann@example.com", teamID: "TEAMAAAAAA", by: "dev-1")
        }
    }

    @Test("an expired, withdrawn or replaced invitation opens nothing; pending invitations are bounded")
    func invitationLifetime() async throws {
        let harness = try await ProviderHarness.make()
        let expiring = try await harness.invite("late@example.com", teamID: "TEAMAAAAAA", by: "dev-1")
        harness.clock.advance(by: 7 * 86_400)
        #expect(try await harness.provider.invitation(token: expiring.token) == nil)
        await #expect(throws: AppleIDProvider.invitationGone) {
            _ = try await harness.provider.acceptInvitation(token: expiring.token, name: "Late", password: "late password")
        }
        #expect(try await harness.provider.pendingInvitations(teamID: "TEAMAAAAAA").isEmpty)

        let first = try await harness.invite("twice@example.com", teamID: "TEAMAAAAAA", by: "dev-1")
        let second = try await harness.invite("twice@example.com", teamID: "TEAMAAAAAA", by: "dev-1")
        #expect(try await harness.provider.invitation(token: first.token) == nil, "a new invitation replaces the old link")
        #expect(try await harness.provider.invitation(token: second.token) != nil)
        try await harness.provider.withdrawInvitation(email: "Twice@Example.com", teamID: "TEAMAAAAAA")
        #expect(try await harness.provider.invitation(token: second.token) == nil)
        await #expect(throws: ConsoleError.self) { try await harness.provider.withdrawInvitation(email: "twice@example.com", teamID: "TEAMAAAAAA") }

        for index in 0..<AppleIDProvider.pendingInvitationLimit {
            _ = try await harness.invite("dev\(index)@example.com", teamID: "TEAMAAAAAA", by: "dev-1")
        }
        await #expect(throws: ConsoleError.self) {
            _ = try await harness.invite("one-more@example.com", teamID: "TEAMAAAAAA", by: "dev-1")
        }
        #expect(try await harness.provider.pendingInvitations(teamID: "TEAMAAAAAA").count == AppleIDProvider.pendingInvitationLimit)
        await #expect(throws: ConsoleError.invalid("Enter the e-mail address of the developer to invite.")) {
            _ = try await harness.invite("no address", teamID: "TEAMBBBBBB", by: "dev-1")
        }
    }

    @Test("of many concurrent acceptances of one invitation, one creates the account")
    func concurrentAcceptance() async throws {
        let harness = try await ProviderHarness.make()
        let issued = try await harness.invite("race@example.com", teamID: "TEAMAAAAAA", by: "dev-1")
        let accepted = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<8 {
                group.addTask {
                    (try? await harness.provider.acceptInvitation(token: issued.token, name: "R\(index)", password: "password \(index)")) != nil
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(accepted == 1)
        #expect(try await harness.provider.members(of: "TEAMAAAAAA").count == 1)
    }

    @Test("the operator's direct path: an existing developer joins, someone new is created with the operator's first password")
    func operatorPath() async throws {
        let harness = try await ProviderHarness.make()
        _ = try await harness.provider.registerDeveloper(email: "ann@example.com", name: "Ann", password: "ann password", teamIDs: ["TEAMBBBBBB"])
        let ann = try await harness.provider.operatorAddsTeamMember(email: " Ann@Example.com ", name: nil, password: nil, teamID: "TEAMAAAAAA")
        #expect(ann.teamIDs == ["TEAMBBBBBB", "TEAMAAAAAA"])
        await #expect(throws: ConsoleError.refused("ann@example.com is already a member of TEAMAAAAAA.")) {
            try await harness.provider.operatorAddsTeamMember(email: "ann@example.com", name: nil, password: nil, teamID: "TEAMAAAAAA")
        }
        await #expect(throws: ConsoleError.self) {
            try await harness.provider.operatorAddsTeamMember(email: "new@example.com", name: "New", password: nil, teamID: "TEAMAAAAAA")
        }
        let new = try await harness.provider.operatorAddsTeamMember(
            email: "new@example.com", name: "New", password: "new password", teamID: "TEAMAAAAAA")
        #expect(new.teamIDs == ["TEAMAAAAAA"])
        #expect(try await harness.provider.members(of: "TEAMAAAAAA").map(\.email) == ["ann@example.com", "new@example.com"])
    }

    @Test("an invitation's link goes by mail to the invited address only: not to the inviter, not into the team's relay traffic")
    func invitationMailedToInvitee() async throws {
        let harness = try await ProviderHarness.make()
        let sent = try await harness.provider.inviteTeamMember(
            email: "Victim@Example.com", teamID: "TEAMAAAAAA", invitedBy: "dev-1", linkBase: "https://id.example.com", mail: harness.relay)
        let mail = try #require(try await harness.relay.message(id: sent.mailID)).mail.message
        #expect(mail.direction == .notice)
        #expect(mail.destination == "victim@example.com" && mail.recipient == "victim@example.com")
        #expect(mail.subject == "Join the team TEAMAAAAAA")
        let held = try await harness.relay.messages(.address("victim@example.com"))
        #expect(held.map(\.message.id) == [sent.mailID], "the admin API's mail lists it by address")
        #expect(try await harness.relay.messages(.team("TEAMAAAAAA")).isEmpty, "a team member never reads it")
        let body = try #require(try await harness.relay.message(id: sent.mailID)).body
        let token = try #require(ReceivedInvitation.token(in: body))
        #expect(body.contains("https://id.example.com/console/invitations/" + token))
        #expect(try await harness.provider.invitation(token: token)?.email == "victim@example.com")
    }

    @Test("the operator's path refuses a password for an account that exists, instead of dropping it and joining the account")
    func operatorPasswordForExistingAccountRefused() async throws {
        let harness = try await ProviderHarness.make()
        _ = try await harness.provider.registerDeveloper(
            email: "victim@example.com", name: "Squatter", password: "squatter's password", teamIDs: ["TEAMBBBBBB"])
        await #expect(
            throws: ConsoleError.refused(
                "victim@example.com already has a developer account, with its owner's password: leave the password out, or invite them (its owner accepts the invitation)."
            )
        ) {
            try await harness.provider.operatorAddsTeamMember(
                email: "victim@example.com", name: "Victim", password: "operator's password", teamID: "TEAMAAAAAA")
        }
        #expect(try await harness.provider.members(of: "TEAMAAAAAA").isEmpty)
    }

    @Test("an individual team has one member: inviting, adding or registering a second is refused")
    func individual() async throws {
        let harness = try await ProviderHarness.make()
        try await harness.store.save(DeveloperTeam(id: "SOLOTEAM00", name: "Solo", kind: .individual))
        _ = try await harness.provider.registerDeveloper(email: "solo@example.com", name: "Solo", password: "solo password", teamIDs: ["SOLOTEAM00"])
        _ = try await harness.provider.registerDeveloper(email: "ann@example.com", name: "Ann", password: "ann password", teamIDs: ["TEAMAAAAAA"])
        let refusal = ConsoleError.refused("SOLOTEAM00 is an individual team: it has one member. Only an organization can add developers.")
        await #expect(throws: refusal) {
            _ = try await harness.invite("ann@example.com", teamID: "SOLOTEAM00", by: "dev-1")
        }
        await #expect(throws: refusal) {
            try await harness.provider.operatorAddsTeamMember(email: "ann@example.com", name: nil, password: nil, teamID: "SOLOTEAM00")
        }
        await #expect(throws: refusal) {
            _ = try await harness.provider.registerDeveloper(email: "bob@example.com", name: "Bob", password: "bob password", teamIDs: ["SOLOTEAM00"])
        }
        #expect(try await harness.provider.members(of: "SOLOTEAM00").map(\.email) == ["solo@example.com"])
        await #expect(throws: ConsoleError.notFound("There is no team NOSUCHTEAM.")) {
            _ = try await harness.invite("ann@example.com", teamID: "NOSUCHTEAM", by: "dev-1")
        }
    }
}
