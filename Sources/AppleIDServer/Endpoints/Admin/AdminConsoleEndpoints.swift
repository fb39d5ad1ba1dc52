import AppleIDAdminAPI
import AppleIDConsole
import AppleIDEmailSources
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Admin calls for what the console does for people: developers and their teams, the test
/// notification, the e-mail sources and their SPF check. Each calls the console's engine operation,
/// so scripts get the same rules and messages. Creating a developer with a password and adding one to
/// a team directly are the operator's paths (whoever holds the admin token runs the server); people
/// invite people (`POST /admin/teams/{team}/invitations`, or the console's Team page).
struct AdminConsoleEndpoints {
    let provider: AppleIDProvider
    /// Where invitations go: the relay's mailboxes.
    let mail: any NoticeSender
    let baseURL: String

    func register(on admin: RouterGroup<AppleIDRequestContext>) {
        admin.post("/developers") { request, context in
            let order = try await request.decode(as: DeveloperOrder.self, context: context)
            return try await answer {
                let developer = try await provider.registerDeveloper(
                    email: order.email, name: order.name ?? order.email, password: order.password ?? "",
                    teamIDs: (order.teamIDs ?? []).map(TeamID.init(rawValue:)))
                return DeveloperSummary(developer)
            }
        }
        admin.post("/teams/:team/developers") { request, context in
            let teamID = TeamID(rawValue: try context.parameters.requireDecoded("team"))
            let order = try await request.decode(as: DeveloperOrder.self, context: context)
            return try await answer {
                DeveloperSummary(
                    try await provider.operatorAddsTeamMember(email: order.email, name: order.name, password: order.password, teamID: teamID))
            }
        }
        admin.post("/teams/:team/invitations") { request, context in
            let teamID = TeamID(rawValue: try context.parameters.requireDecoded("team"))
            let order = try await request.decode(as: InvitationOrder.self, context: context)
            return try await answer {
                let sent = try await provider.inviteTeamMember(
                    email: order.email, teamID: teamID, invitedBy: TeamInvitation.operatorInviter, linkBase: baseURL, mail: mail)
                return InvitationSummary(sent)
            }
        }
        admin.get("/teams/:team/invitations") { _, context in
            let teamID = TeamID(rawValue: try context.parameters.requireDecoded("team"))
            return try await answer {
                PendingInvitationList(invitations: try await provider.pendingInvitations(teamID: teamID).map { PendingInvitationSummary($0) })
            }
        }
        admin.post("/app-groups/:group/test-notification") { _, context in
            let groupID = ClientID(rawValue: try context.parameters.requireDecoded("group"))
            return try await answer {
                let message = try await provider.sendTestNotification(groupID: groupID, teamID: nil)
                return TestNotificationView(jti: message.id, aud: message.audience.rawValue, type: message.event.type.rawValue)
            }
        }
        admin.post("/teams/:team/email-sources") { request, context in
            let teamID = TeamID(rawValue: try context.parameters.requireDecoded("team"))
            let order = try await request.decode(as: SourcesOrder.self, context: context)
            return try await answer {
                SourceList(emailSources: try await provider.addEmailSources(order.sources, teamID: teamID).map(SourceSummary.init))
            }
        }
        admin.post("/teams/:team/email-sources/check") { _, context in
            let teamID = TeamID(rawValue: try context.parameters.requireDecoded("team"))
            return try await answer { SourceList(emailSources: try await provider.checkEmailSources(teamID: teamID).map(SourceSummary.init)) }
        }
    }

    /// The operation's result as JSON (a refusal, the console's message, renders itself).
    private func answer<Result: Encodable>(_ operation: () async throws -> Result) async throws -> Response {
        try AdminEndpoints.json(try await operation())
    }
}

extension DeveloperSummary {
    init(_ developer: DeveloperAccount) {
        self.init(id: developer.id, email: developer.email, name: developer.name, teamIDs: developer.teamIDs.map(\.rawValue))
    }
}

extension InvitationSummary {
    init(_ sent: SentInvitation) {
        self.init(
            teamID: sent.invitation.teamID.rawValue, email: sent.invitation.email, mailID: sent.mailID, expiresAt: sent.invitation.expiresAt)
    }
}

extension PendingInvitationSummary {
    init(_ invitation: TeamInvitation) {
        self.init(email: invitation.email, invitedBy: invitation.invitedBy, expiresAt: invitation.expiresAt)
    }
}

extension SourceSummary {
    init(_ source: EmailSource) {
        self.init(value: source.value, check: source.check.rawValue, checkedAt: source.checkedAt)
    }
}
