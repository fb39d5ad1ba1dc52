import AppleIDProtocol
import AppleIDProvider
import Foundation

/// A console browser signed in as a developer: the cookie's value and the stored session.
public struct ConsoleSignIn: Sendable {
    public let cookie: String
    public let session: ConsoleSession
}

/// Developer accounts and console sessions. Passwords are bcrypt and sign-in attempts are limited
/// with the Apple IDs' policy and counter (``SignInLockPolicy``), keyed apart from Apple IDs.
extension AppleIDProvider {
    /// Registers a developer who belongs to `teamIDs` (at least one), with a password the operator
    /// chose: the admin API's direct path for scripts. People join teams by invitation
    /// (``inviteTeamMember(email:teamID:invitedBy:)``).
    public func registerDeveloper(email: String, name: String, password: String, teamIDs: [TeamID]) async throws -> DeveloperAccount {
        let login = Self.developerLogin(email)
        guard Self.isPlausibleAddress(login), !teamIDs.isEmpty, password.count >= Self.minimumDeveloperPasswordLength else {
            throw ConsoleError.invalid("A developer needs an e-mail address, a password of 8 characters or more, and a team.")
        }
        guard try await developerStore.developer(email: login) == nil else { throw ConsoleError.refused("A developer \(login) exists.") }
        for teamID in teamIDs {
            guard let team = try await store.team(teamID) else { throw ConsoleError.notFound("There is no team \(teamID).") }
            try await checkRoom(in: team)
        }
        let developer = DeveloperAccount(
            id: random.hex(bytes: 16), email: login, name: name,
            passwordHash: await hashPassword(password), teamIDs: teamIDs)
        try await developerStore.save(developer)
        return developer
    }

    /// Checks the e-mail and password and starts a console session in the developer's first team.
    /// Each attempt on an existing developer is counted before the check; an unknown e-mail costs the
    /// same bcrypt time as a wrong password.
    public func signInDeveloper(email: String, password: String) async throws -> SignInStep<ConsoleSignIn> {
        guard let developer = try await developerStore.developer(email: Self.developerLogin(email)), let teamID = developer.teamIDs.first else {
            _ = await Credentials.verifyDecoyPassword(password, cost: configuration.passwordHashCost)
            return .incorrect
        }
        switch try await checkDeveloperPassword(developer, password) {
        case .passed: return .passed(try await startConsoleSession(developer, teamID: teamID))
        case .incorrect: return .incorrect
        case .locked(let until): return .locked(until: until)
        }
    }

    /// The developer's password, checked under the sign-in limit: counted before the check, and a
    /// right one clears the count.
    func checkDeveloperPassword(_ developer: DeveloperAccount, _ password: String) async throws -> SignInStep<Void> {
        let attemptKey = Self.attemptKey(developerID: developer.id)
        if case .locked(let until) = try await store.admitSignInAttempt(accountID: attemptKey, now: clock.now(), policy: configuration.signInLock) {
            return .locked(until: until)
        }
        guard await Credentials.verifyPassword(password, hash: developer.passwordHash) else { return .incorrect }
        try await store.clearSignInAttempts(accountID: attemptKey)
        return .passed(())
    }

    /// A new console session for the developer, working in `teamID`.
    func startConsoleSession(_ developer: DeveloperAccount, teamID: TeamID) async throws -> ConsoleSignIn {
        let cookie = random.hex(bytes: 32)
        let session = ConsoleSession(
            idHash: OpaqueToken.hash(cookie), developerID: developer.id, teamID: teamID, csrfToken: random.hex(bytes: 16),
            expiresAt: clock.now().addingTimeInterval(configuration.consoleSessionLifetime))
        try await consoleSessionStore.save(session)
        logger.info("developer signed in to the console", metadata: ["developer_id": "\(developer.id)"])
        return ConsoleSignIn(cookie: cookie, session: session)
    }

    /// The shortest password a developer may choose.
    public static let minimumDeveloperPasswordLength = 8

    static func checkNewPassword(_ password: String) throws {
        guard password.count >= minimumDeveloperPasswordLength else {
            throw ConsoleError.invalid("Choose a password of \(minimumDeveloperPasswordLength) characters or more.")
        }
    }

    /// The live session of a console cookie and its developer.
    public func consoleSession(cookie: String) async throws -> (session: ConsoleSession, developer: DeveloperAccount)? {
        guard let session = try await consoleSessionStore.consoleSession(idHash: OpaqueToken.hash(cookie)), session.expiresAt > clock.now(),
            let developer = try await developerStore.developer(id: session.developerID), developer.teamIDs.contains(session.teamID)
        else { return nil }
        return (session, developer)
    }

    /// Moves the session to another of the developer's teams.
    public func switchTeam(cookie: String, to teamID: TeamID) async throws {
        guard case (var session, let developer)? = try await consoleSession(cookie: cookie) else { throw ConsoleError.refused("Sign in again.") }
        guard developer.teamIDs.contains(teamID) else { throw ConsoleError.notFound("You are not a member of team \(teamID).") }
        session.teamID = teamID
        try await consoleSessionStore.save(session)
    }

    public func signOutDeveloper(cookie: String) async throws {
        try await consoleSessionStore.deleteConsoleSession(idHash: OpaqueToken.hash(cookie))
    }

    /// The teams a developer belongs to, in the developer's order.
    public func teams(of developer: DeveloperAccount) async throws -> [DeveloperTeam] {
        var teams: [DeveloperTeam] = []
        for id in developer.teamIDs { if let team = try await store.team(id) { teams.append(team) } }
        return teams
    }

    /// The key of a developer's sign-in attempts in the shared attempt counter.
    static func attemptKey(developerID: String) -> String { "developer:" + developerID }
}
