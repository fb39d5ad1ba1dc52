import AppleIDProtocol
import AppleIDProvider
import Foundation

/// What a developer does with their own account from the console: change the password, sign out
/// every other browser, leave a team. Each acts on the signed-in session's developer only.
extension AppleIDProvider {
    /// Changes the password after checking the current one (counted like a sign-in), and signs out
    /// every other session of the developer: whoever knew the old password is out.
    public func changeDeveloperPassword(cookie: String, current: String, new: String) async throws -> SignInStep<Void> {
        let (session, developer) = try await requireConsoleSession(cookie)
        try Self.checkNewPassword(new)
        switch try await checkDeveloperPassword(developer, current) {
        case .passed: break
        case .incorrect: return .incorrect
        case .locked(let until): return .locked(until: until)
        }
        var changed = developer
        changed.passwordHash = await hashPassword(new)
        try await developerStore.save(changed)
        let ended = try await consoleSessionStore.deleteConsoleSessions(developerID: developer.id, except: session.idHash)
        logger.info("developer changed their password", metadata: ["developer_id": "\(developer.id)", "sessions_ended": "\(ended)"])
        return .passed(())
    }

    /// Ends every console session of the developer but this one; answers how many.
    @discardableResult
    public func signOutOtherSessions(cookie: String) async throws -> Int {
        let (session, developer) = try await requireConsoleSession(cookie)
        return try await consoleSessionStore.deleteConsoleSessions(developerID: developer.id, except: session.idHash)
    }

    /// Takes the developer out of a team. A developer keeps one team at least (an account without a
    /// team cannot sign in), and a team keeps one member at least (nobody could act for it). A session
    /// that was working in the team moves to the developer's first remaining team.
    public func leaveTeam(cookie: String, teamID: TeamID) async throws {
        let (session, developer) = try await requireConsoleSession(cookie)
        guard developer.teamIDs.contains(teamID) else { throw ConsoleError.notFound("You are not a member of team \(teamID).") }
        guard developer.teamIDs.count > 1 else {
            throw ConsoleError.refused("\(teamID) is your only team. A developer account belongs to one team at least.")
        }
        guard try await developerStore.developers(teamID: teamID).count > 1 else {
            throw ConsoleError.refused("You are the only member of \(teamID). Invite someone to take it over before you leave.")
        }
        var changed = developer
        changed.teamIDs.removeAll { $0 == teamID }
        try await developerStore.save(changed)
        if session.teamID == teamID, let next = changed.teamIDs.first {
            var moved = session
            moved.teamID = next
            try await consoleSessionStore.save(moved)
        }
        logger.info("developer left a team", metadata: ["developer_id": "\(developer.id)", "team_id": "\(teamID)"])
    }

    private func requireConsoleSession(_ cookie: String) async throws -> (ConsoleSession, DeveloperAccount) {
        guard let (session, developer) = try await consoleSession(cookie: cookie) else { throw ConsoleError.refused("Sign in again.") }
        return (session, developer)
    }
}
