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
                return try page(visit, message: left.map { site.text("console_left_team", visit.locale, values: ["team": $0]) })
            }
        }
        router.post("/console/account/password") { request, _ in
            try await site.action(
                request,
                { visit, form in
                    guard (form.password ?? "") == (form.confirm ?? "") else {
                        return try page(visit, error: site.text("console_passwords_differ", visit.locale), status: .badRequest)
                    }
                    switch try await site.provider.changeDeveloperPassword(
                        cookie: visit.cookie, current: form.current ?? "", new: form.password ?? "")
                    {
                    case .passed: return try page(visit, message: site.text("console_password_changed", visit.locale))
                    case .incorrect:
                        return try page(visit, error: site.text("console_incorrect_password", visit.locale), status: .unauthorized)
                    case .locked(let until):
                        let minutes = ConsoleInvitationEndpoints.minutes(until: until, now: site.provider.clock.now())
                        return try page(
                            visit, error: site.text("console_locked", visit.locale, values: ["minutes": "\(minutes)"]), status: .tooManyRequests)
                    }
                }, onError: { visit, error in try page(visit, error: error.message, status: ConsoleIdentifierEndpoints.status(error)) })
        }
        router.post("/console/account/sign-out-others") { request, _ in
            try await site.action(
                request,
                { visit, _ in
                    let ended = try await site.provider.signOutOtherSessions(cookie: visit.cookie)
                    return try page(visit, message: site.text("console_signed_out_others", visit.locale, values: ["count": "\(ended)"]))
                }, onError: { visit, error in try page(visit, error: error.message, status: ConsoleIdentifierEndpoints.status(error)) })
        }
        router.post("/console/account/leave") { request, _ in
            try await site.action(
                request,
                { visit, form in
                    let teamID = TeamID(rawValue: form.teamID ?? "")
                    try await site.provider.leaveTeam(cookie: visit.cookie, teamID: teamID)
                    return ConsoleSite.redirect("/console/account?left=" + teamID.rawValue.filter { $0.isASCII && ($0.isLetter || $0.isNumber) })
                }, onError: { visit, error in try page(visit, error: error.message, status: ConsoleIdentifierEndpoints.status(error)) })
        }
    }

    private func page(
        _ visit: ConsoleSite.Visit, message: String? = nil, error: String? = nil, status: HTTPResponse.Status = .ok
    ) throws -> Response {
        let content = AccountContent(
            name: visit.developer.name, email: visit.developer.email,
            teams: visit.developer.teamIDs.map { TeamMembership(id: $0.rawValue, current: $0 == visit.teamID) },
            canLeave: visit.developer.teamIDs.count > 1)
        return try site.render(
            visit, template: "console_account", section: "account", content: content, message: message, error: error, status: status)
    }
}

struct TeamMembership: Sendable {
    let id: String
    let current: Bool
}

struct AccountContent: Sendable {
    let name: String
    let email: String
    let teams: [TeamMembership]
    /// A developer keeps one team at least.
    let canLeave: Bool
}
