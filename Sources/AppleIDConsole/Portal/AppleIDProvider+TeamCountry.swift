import AppleIDProtocol
import AppleIDProvider

extension AppleIDProvider {
    /// Sets where a team is based (``DeveloperTeam/country``; blank clears it): the console's Team page,
    /// the admin API and an environment file's `country`.
    public func setTeamCountry(_ country: String?, teamID: TeamID) async throws -> DeveloperTeam {
        guard var team = try await store.team(teamID) else { throw ConsoleError.notFound("There is no team \(teamID).") }
        team.country = try DeveloperTeam.checkedCountry(country)
        try await store.save(team)
        return team
    }
}
