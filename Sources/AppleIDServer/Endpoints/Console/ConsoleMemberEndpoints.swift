import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Team: who works in the current team, and adding a developer to it by e-mail (the engine keeps an
/// individual team to one member).
struct ConsoleMemberEndpoints {
    let site: ConsoleSite

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/console/members") { request, _ in
            try await site.page(request) { try await page($0) }
        }
        router.post("/console/members") { request, _ in
            try await site.action(
                request,
                { visit, form in
                    let member = try await site.provider.addTeamMember(
                        email: form.email ?? "", name: form.name, password: form.password, teamID: visit.teamID)
                    return try await page(visit, message: site.text("console_member_added", visit.locale, values: ["email": member.email]))
                }, onError: { visit, error in try await page(visit, error: error) })
        }
    }

    private func page(_ visit: ConsoleSite.Visit, message: String? = nil, error: ConsoleError? = nil) async throws -> Response {
        let members = try await site.provider.members(of: visit.teamID).map { MemberRow(email: $0.email, name: $0.name) }
        let content = MembersContent(members: members, canAdd: visit.team.kind == .organization)
        return try site.render(
            visit, template: "console_members", section: "members", content: content, message: message, error: error?.message,
            status: error.map(ConsoleIdentifierEndpoints.status) ?? .ok)
    }
}

struct MemberRow: Sendable {
    let email: String
    let name: String
}

struct MembersContent: Sendable {
    let members: [MemberRow]
    /// Only an organization adds developers; an individual team's page says why there is no form.
    let canAdd: Bool
}
