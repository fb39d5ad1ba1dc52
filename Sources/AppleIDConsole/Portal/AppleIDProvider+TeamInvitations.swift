import AppleIDProtocol
import AppleIDProvider
import Foundation

/// Joining a team by invitation (see ``TeamInvitation``). The token of an invitation is a bearer
/// secret of 256 bits; it is redeemed once, atomically with the membership it grants.
extension AppleIDProvider {
    /// At most this many pending invitations per team: inviting is free, so it is bounded.
    public static let pendingInvitationLimit = 50

    /// Invites `email` to the team. A pending invitation of the same address is replaced (its link stops
    /// working). An individual team takes no second member; a member is not invited again.
    ///
    /// The link (`linkBase` + `/console/invitations/<token>`) goes by mail to the invited address only:
    /// whoever opens it creates that address's developer account, so showing it to the inviter would
    /// let a developer take any address (security review 3, finding 6). `mail` takes the message:
    /// the relay's mailboxes (`MailRelay`), held for the admin API or sent on by the smarthost.
    public func inviteTeamMember(
        email: String, teamID: TeamID, invitedBy inviter: String, linkBase: String, mail: any NoticeSender
    ) async throws -> SentInvitation {
        guard let team = try await store.team(teamID) else { throw ConsoleError.notFound("There is no team \(teamID).") }
        let login = Self.developerLogin(email)
        guard Self.isPlausibleAddress(login) else { throw ConsoleError.invalid("Enter the e-mail address of the developer to invite.") }
        if let developer = try await developerStore.developer(email: login), developer.teamIDs.contains(team.id) {
            throw ConsoleError.refused("\(login) is already a member of \(team.id).")
        }
        try await checkRoom(in: team)
        let token = random.hex(bytes: 32)
        let now = clock.now()
        let invitation = TeamInvitation(
            idHash: OpaqueToken.hash(token), teamID: team.id, email: login, invitedBy: inviter, createdAt: now,
            expiresAt: now.addingTimeInterval(configuration.teamInvitationLifetime))
        guard try await invitationStore.add(invitation, limit: Self.pendingInvitationLimit, now: now) else {
            throw ConsoleError.refused(
                "\(team.id) has \(Self.pendingInvitationLimit) pending invitations. Withdraw one, or wait until they are accepted or expire.")
        }
        let days = Int((configuration.teamInvitationLifetime / 86_400).rounded())
        let text = """
            You are invited to join the developer team \(team.name) (\(team.id)).

            To accept, open this link. It works once and expires in \(days) days:
            \(linkBase)/console/invitations/\(token)

            If you did not expect this invitation, ignore this message.
            """
        let mailID = try await mail.sendNotice(to: login, subject: "Join the team \(team.name)", text: text)
        logger.info("team invitation sent", metadata: ["team_id": "\(team.id)", "invited_by": "\(inviter)", "mail_id": "\(mailID)"])
        return SentInvitation(invitation: invitation, mailID: mailID)
    }

    /// The team's invitations that can still be accepted, newest first.
    public func pendingInvitations(teamID: TeamID) async throws -> [TeamInvitation] {
        try await invitationStore.invitations(teamID: teamID, now: clock.now())
    }

    /// Withdraws the pending invitation of `email` to the team: its link stops working.
    public func withdrawInvitation(email: String, teamID: TeamID) async throws {
        guard try await invitationStore.deleteInvitation(teamID: teamID, email: Self.developerLogin(email)) else {
            throw ConsoleError.notFound("There is no pending invitation for \(Self.developerLogin(email)).")
        }
    }

    /// What the invitation's page shows, or `nil` when the link is unknown, used or expired.
    public func invitation(token: String) async throws -> InvitationDetails? {
        guard let invitation = try await liveInvitation(token: token), let team = try await store.team(invitation.teamID) else { return nil }
        let hasAccount = try await developerStore.developer(email: invitation.email) != nil
        return InvitationDetails(team: team, email: invitation.email, hasAccount: hasAccount, expiresAt: invitation.expiresAt)
    }

    /// Accepts an invitation for an address that has no developer account yet: the account is created
    /// with the password its owner chose here, in the same transaction that uses up the invitation, and
    /// signed in.
    public func acceptInvitation(token: String, name: String, password: String) async throws -> ConsoleSignIn {
        guard let invitation = try await liveInvitation(token: token) else { throw Self.invitationGone }
        guard try await developerStore.developer(email: invitation.email) == nil else {
            throw ConsoleError.refused("\(invitation.email) has a developer account: sign in with its password to accept.")
        }
        try Self.checkNewPassword(password)
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        let developer = DeveloperAccount(
            id: random.hex(bytes: 16), email: invitation.email, name: trimmed.isEmpty ? invitation.email : trimmed,
            passwordHash: await hashPassword(password), teamIDs: [])
        guard let joined = try await invitationStore.redeemInvitation(idHash: invitation.idHash, now: clock.now(), registering: developer) else {
            throw Self.invitationGone
        }
        logger.info("developer joined a team by invitation", metadata: ["developer_id": "\(joined.id)", "team_id": "\(invitation.teamID)"])
        return try await startConsoleSession(joined, teamID: invitation.teamID)
    }

    /// Accepts an invitation for an existing developer account: its owner proves it with the password
    /// (counted like any console sign-in). The invitation names the account; no other can take it.
    public func acceptInvitation(token: String, password: String) async throws -> SignInStep<ConsoleSignIn> {
        guard let invitation = try await liveInvitation(token: token) else { throw Self.invitationGone }
        guard let developer = try await developerStore.developer(email: invitation.email) else {
            throw ConsoleError.refused("\(invitation.email) has no developer account yet: choose a name and a password to create it.")
        }
        switch try await checkDeveloperPassword(developer, password) {
        case .passed: break
        case .incorrect: return .incorrect
        case .locked(let until): return .locked(until: until)
        }
        guard let joined = try await invitationStore.redeemInvitation(idHash: invitation.idHash, now: clock.now(), registering: nil) else {
            throw Self.invitationGone
        }
        logger.info("developer joined a team by invitation", metadata: ["developer_id": "\(joined.id)", "team_id": "\(invitation.teamID)"])
        return .passed(try await startConsoleSession(joined, teamID: invitation.teamID))
    }

    private func liveInvitation(token: String) async throws -> TeamInvitation? {
        guard token.count == 64, token.allSatisfy(\.isHexDigit),
            let invitation = try await invitationStore.invitation(idHash: OpaqueToken.hash(token)), invitation.expiresAt > clock.now()
        else { return nil }
        return invitation
    }

    public static let invitationGone = ConsoleError.notFound("This invitation has been used, withdrawn or has expired. Ask the team for a new one.")

    /// How a developer's e-mail is kept: trimmed and lower-cased.
    static func developerLogin(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// One `@` with something on each side, and nothing that would break a header or a page.
    static func isPlausibleAddress(_ login: String) -> Bool {
        let parts = login.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty && login.count <= 254
            && !login.contains(where: { $0.isWhitespace || $0.isNewline || $0 == "<" || $0 == ">" })
    }
}
