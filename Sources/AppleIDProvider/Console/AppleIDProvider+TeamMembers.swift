import AppleIDProtocol
import Foundation

/// Who works in a team. A developer adds another by e-mail from the console: an existing developer
/// joins the team; someone new gets a developer account with the password the inviter chose, to be
/// changed by telling them. The team's type limits who may join (Apple: an individual account is one
/// person; an organization adds members).
extension AppleIDProvider {
    /// The developers of the team, by e-mail.
    public func members(of teamID: TeamID) async throws -> [DeveloperAccount] {
        try await store.developers(teamID: teamID).sorted { $0.email < $1.email }
    }

    /// Adds the developer with `email` to the team, registering them first when there is none (then
    /// `name` and `password` are needed). An individual team takes no second member.
    @discardableResult
    public func addTeamMember(email: String, name: String?, password: String?, teamID: TeamID) async throws -> DeveloperAccount {
        guard let team = try await store.team(teamID) else { throw ConsoleError.notFound("There is no team \(teamID).") }
        let login = email.trimmingCharacters(in: .whitespaces).lowercased()
        guard var developer = try await store.developer(email: login) else {
            guard let password, !password.isEmpty else {
                throw ConsoleError.invalid("There is no developer \(login) yet: give a name and a first password to create one.")
            }
            let name = name?.trimmingCharacters(in: .whitespaces) ?? ""
            return try await registerDeveloper(email: login, name: name.isEmpty ? login : name, password: password, teamIDs: [team.id])
        }
        guard !developer.teamIDs.contains(team.id) else { throw ConsoleError.refused("\(login) is already a member of \(team.id).") }
        try await checkRoom(in: team)
        developer.teamIDs.append(team.id)
        try await store.save(developer)
        logger.info("developer added to a team", metadata: ["developer_id": "\(developer.id)", "team_id": "\(team.id)"])
        return developer
    }

    /// An individual team is one person: a second member is refused.
    func checkRoom(in team: DeveloperTeam) async throws {
        guard team.kind == .individual, try await !store.developers(teamID: team.id).isEmpty else { return }
        throw ConsoleError.refused(
            "\(team.id) is an individual team: it has one member. Only an organization can add developers.")
    }
}
