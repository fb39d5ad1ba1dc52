import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Team: who works in the current team, the invitations waiting to be accepted, and inviting a
/// developer by e-mail. Nobody here sets another person's password, nor sees the invitation's link:
/// it goes by mail to the invited person, who accepts on its page (``ConsoleInvitationEndpoints``).
struct ConsoleMemberEndpoints {
    let site: ConsoleSite

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/console/members") { request, _ in
            try await site.page(request) { visit in try await site.show(visit, page) }
        }
        router.post("/console/members") { request, _ in
            try await site.action(request, page: page) { visit, form in
                // The link goes by mail to the invited address; the inviter is only told it was sent.
                let sent = try await site.provider.inviteTeamMember(
                    email: form.email ?? "", teamID: visit.teamID, invitedBy: visit.developer.id, linkBase: site.link(""), mail: site.relay)
                let days = Int((site.provider.configuration.teamInvitationLifetime / 86_400).rounded())
                let message = site.text(
                    "console_member_invited", visit.locale, values: ["email": sent.invitation.email, "days": "\(days)"])
                return try await site.show(visit, page, message: message)
            }
        }
        router.post("/console/members/country") { request, _ in
            try await site.action(request, page: page) { visit, form in
                _ = try await site.provider.setTeamCountry(form.value, teamID: visit.teamID)
                return try await site.show(visit, page, message: site.text("console_team_country_saved", visit.locale))
            }
        }
        router.post("/console/members/withdraw") { request, _ in
            try await site.action(request, page: page) { visit, form in
                try await site.provider.withdrawInvitation(email: form.email ?? "", teamID: visit.teamID)
                return try await site.show(
                    visit, page, message: site.text("console_invitation_withdrawn", visit.locale, values: ["email": form.email ?? ""]))
            }
        }
    }

    /// The Team page; `kept` is the address of a refused invitation.
    private func page(_ visit: ConsoleSite.Visit, kept: ConsoleForm?) async throws -> ConsolePage {
        let members = try await visit.console.members().map { MemberRow(email: $0.email, name: $0.name) }
        let invitations = try await visit.console.pendingInvitations().map {
            InvitationRow(email: $0.email, expires: ConsoleSite.day($0.expiresAt))
        }
        // Read again: the visit's team is from before an action that changed it.
        let storedCountry = try await visit.console.team()?.country
        let content = MembersContent(
            members: members, invitations: invitations, hasInvitations: !invitations.isEmpty,
            canAdd: visit.team.kind == .organization, typedEmail: kept?.email ?? "", country: kept?.value ?? storedCountry ?? "")
        return ConsolePage(template: "console_members", section: "members", content: content)
    }
}

struct MemberRow: Sendable {
    let email: String
    let name: String
}

struct InvitationRow: Sendable {
    let email: String
    let expires: String
}

struct MembersContent: Sendable {
    let members: [MemberRow]
    let invitations: [InvitationRow]
    let hasInvitations: Bool
    /// Only an organization adds developers; an individual team's page says why there is no form.
    let canAdd: Bool
    /// The address of a refused invitation, as typed.
    let typedEmail: String
    /// Where the team is based (ISO 3166-1 alpha-2), or a refused entry as typed.
    let country: String
}
