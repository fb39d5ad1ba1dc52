import AppleIDAdminAPI
import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Admin calls for what a team has: the list of teams, and App IDs with Sign in with Apple (what
/// `POST /admin/teams/{team}/keys` needs as its primary App ID).
struct AdminTeamEndpoints {
    let provider: AppleIDProvider

    func register(on admin: RouterGroup<AppleIDRequestContext>) {
        admin.get("/teams") { _, _ in
            return try AdminEndpoints.json(TeamList(teams: try await provider.teams().map(TeamView.init)))
        }
        // Where the team is based: Apple's country rules (a Korean team's Services IDs need a notification endpoint).
        admin.put("/teams/:team/country") { request, context in
            let teamID = TeamID(rawValue: try context.parameters.requireDecoded("team"))
            let order = try await request.decode(as: TeamCountryOrder.self, context: context)
            return try AdminEndpoints.json(TeamView(try await provider.setTeamCountry(order.country, teamID: teamID)))
        }
        // Registers an App ID as the console's Identifiers page does, by the same engine rules.
        admin.post("/teams/:team/apps") { request, context in
            let teamID = TeamID(rawValue: try context.parameters.requireDecoded("team"))
            let order = try await request.decode(as: AppIDOrder.self, context: context)
            let client = try await provider.createAppID(
                teamID: teamID, bundleID: order.bundleID, description: order.description ?? order.bundleID,
                groupedWith: order.groupedWith.map(ClientID.init(rawValue:)))
            return try AdminEndpoints.json(ClientView(client))
        }
    }
}

extension TeamView {
    init(_ team: DeveloperTeam) {
        self.init(teamID: team.id.rawValue, name: team.name, kind: team.kind.rawValue, country: team.country)
    }
}
