import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// The developer's own account: change the password (which signs out every other browser), sign out
/// every other browser, and leave a team.
struct ConsoleAccountEndpoints {
    let site: ConsoleSite

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/console/account") { request, _ in
            try await site.page(request) { visit in
                // After leaving a team: named only when it is indeed no longer one of the developer's.
                let left = request.uri.queryParameters["left"].map(String.init).flatMap { team in
                    team.count <= 10 && team.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
                        && !visit.developer.teamIDs.contains(TeamID(rawValue: team)) ? team : nil
                }
                return try await site.render(
                    visit, try await page(visit), message: left.map { site.text("console_left_team", visit.locale, values: ["team": $0]) })
            }
        }
        router.post("/console/account/password") { request, _ in
            try await site.action(request, page: { visit, _ in try await page(visit) }) { visit, form in
                guard (form.password ?? "") == (form.confirm ?? "") else {
                    throw try await site.error(
                        site.text("console_passwords_differ", visit.locale), status: .badRequest, visit: visit, page: try await page(visit))
                }
                let step = try await site.provider.changeDeveloperPassword(
                    cookie: visit.cookie, current: form.current ?? "", new: form.password ?? "")
                try await site.passed(step, locale: visit.locale) { message, status in
                    try await site.error(message, status: status, visit: visit, page: try await page(visit))
                }
                return try await site.render(visit, try await page(visit), message: site.text("console_password_changed", visit.locale))
            }
        }
        router.post("/console/account/sign-out-others") { request, _ in
            try await site.action(request, page: { visit, _ in try await page(visit) }) { visit, _ in
                let ended = try await site.provider.signOutOtherSessions(cookie: visit.cookie)
                return try await site.render(
                    visit, try await page(visit), message: site.text("console_signed_out_others", visit.locale, values: ["count": "\(ended)"]))
            }
        }
        router.post("/console/account/leave") { request, _ in
            try await site.action(request, page: { visit, _ in try await page(visit) }) { visit, form in
                let teamID = TeamID(rawValue: form.teamID ?? "")
                try await site.provider.leaveTeam(cookie: visit.cookie, teamID: teamID)
                return ConsoleSite.redirect("/console/account?left=" + teamID.rawValue.filter { $0.isASCII && ($0.isLetter || $0.isNumber) })
            }
        }
    }

    /// The account page. It keeps no input after a refusal: its fields are passwords.
    private func page(_ visit: ConsoleSite.Visit) async throws -> ConsolePage {
        // Teams by name, with the Team ID beside it, as in the switcher.
        let teams = try await site.provider.teams(of: visit.developer)
        let content = AccountContent(
            name: visit.developer.name, email: visit.developer.email,
            teams: teams.map { TeamMembership(id: $0.id.rawValue, name: $0.name, current: $0.id == visit.teamID) },
            canLeave: teams.count > 1)
        return ConsolePage(template: "console_account", section: "account", content: content)
    }
}

struct TeamMembership: Sendable {
    let id: String
    let name: String
    let current: Bool
}

struct AccountContent: Sendable {
    let name: String
    let email: String
    let teams: [TeamMembership]
    /// A developer keeps one team at least.
    let canLeave: Bool
}
