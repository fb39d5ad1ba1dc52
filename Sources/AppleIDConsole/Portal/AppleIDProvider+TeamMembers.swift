import AppleIDProtocol
import AppleIDProvider
import Foundation

/// Who works in a team. In the console, a developer invites another by e-mail
/// (``inviteTeamMember(email:teamID:invitedBy:)``) and the invited person accepts. The admin API keeps
/// a direct path for scripts, the operator's alone. The team's type limits who may join (Apple: an
/// individual account is one person; an organization adds members).
extension AppleIDProvider {
    /// The developers of the team, by e-mail.
    public func members(of teamID: TeamID) async throws -> [DeveloperAccount] {
        try await developerStore.developers(teamID: teamID).sorted { $0.email < $1.email }
    }

    /// The operator's direct path (admin API, `siwa developers add-to-team`): adds the developer with
    /// `email` to the team without asking them, registering them first with the operator's `password`
    /// when there is none. Whoever holds the admin token runs the server, so this is theirs to do; no
    /// console page reaches it. A password for an account that exists is refused, not dropped: the
    /// account may be someone else's (one made through an invitation), whose owner accepts one.
    @discardableResult
    public func operatorAddsTeamMember(email: String, name: String?, password: String?, teamID: TeamID) async throws -> DeveloperAccount {
        guard let team = try await store.team(teamID) else { throw ConsoleError.notFound("There is no team \(teamID).") }
        let login = Self.developerLogin(email)
        guard var developer = try await developerStore.developer(email: login) else {
            guard let password, !password.isEmpty else {
                throw ConsoleError.invalid("There is no developer \(login) yet: give a name and a first password to create one.")
            }
            let name = name?.trimmingCharacters(in: .whitespaces) ?? ""
            return try await registerDeveloper(email: login, name: name.isEmpty ? login : name, password: password, teamIDs: [team.id])
        }
        guard !developer.teamIDs.contains(team.id) else { throw ConsoleError.refused("\(login) is already a member of \(team.id).") }
        guard password == nil || password?.isEmpty == true else {
            throw ConsoleError.refused(
                "\(login) already has a developer account, with its owner's password: leave the password out, or invite them (its owner accepts the invitation)."
            )
        }
        try await checkRoom(in: team)
        developer.teamIDs.append(team.id)
        try await developerStore.save(developer)
        logger.info("operator added a developer to a team", metadata: ["developer_id": "\(developer.id)", "team_id": "\(team.id)"])
        return developer
    }

    /// An individual team is one person: a second member is refused.
    func checkRoom(in team: DeveloperTeam) async throws {
        guard team.kind == .individual, try await !developerStore.developers(teamID: team.id).isEmpty else { return }
        throw ConsoleError.refused(
            "\(team.id) is an individual team: it has one member. Only an organization can add developers.")
    }
}
