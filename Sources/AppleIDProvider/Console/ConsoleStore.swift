import AppleIDProtocol
import Foundation

/// What the developer console reads and writes beyond ``RegistryStore``: a team's identifiers and
/// keys, the one-time key download, e-mail sources, developer accounts and their sessions.
public protocol ConsoleStore: Sendable {
    func appGroups(teamID: TeamID) async throws -> [AppGroup]
    func clients(teamID: TeamID) async throws -> [RegisteredClient]
    /// The team's client `id`: `nil` when there is none or it belongs to another team (one query, by
    /// both, so that a console page cannot show another team's record).
    func client(_ id: ClientID, teamID: TeamID) async throws -> RegisteredClient?
    func developerKeys(teamID: TeamID) async throws -> [DeveloperKey]
    /// Writes the removal in one transaction (see ``IdentifierRemoval``).
    func remove(_ removal: IdentifierRemoval) async throws
    /// The identifier as last removed (even when its team registered it again), or `nil` when it never was.
    func removedIdentifier(_ id: ClientID) async throws -> RemovedIdentifier?
    /// The team's subjects of the users who consented to the group, oldest consent first.
    func consentingSubjects(groupID: ClientID, teamID: TeamID) async throws -> [Subject]
    /// Transfers from or to the team, newest first.
    func transfers(involving teamID: TeamID) async throws -> [AppTransfer]
    /// How many Apple IDs hold a live (unrevoked) grant issued to the client.
    func authorizationCount(clientID: ClientID) async throws -> Int

    /// Keeps a new key's private half until its one download.
    func savePendingDownload(keyID: KeyID, privateKeyPEM: String) async throws
    /// Removes and returns the private half, atomically: of any number of callers, one gets it.
    func takePendingDownload(keyID: KeyID) async throws -> String?
    func hasPendingDownload(keyID: KeyID) async throws -> Bool

    /// The team's e-mail sources, in the order they were added.
    func emailSources(teamID: TeamID) async throws -> [EmailSource]
    /// Adds the sources unless that would pass `limit` for the team; returns whether they were added.
    func add(_ sources: [EmailSource], limit: Int) async throws -> Bool
    func deleteEmailSource(teamID: TeamID, value: String) async throws
    /// Records the result of a source's SPF check; a source removed meanwhile stays removed.
    func setCheck(_ check: EmailSource.Check, checkedAt: Date, teamID: TeamID, value: String) async throws
    /// Registers (or with `nil` removes) the source's DKIM public key; `false` when there is no such source.
    func setDKIMKey(_ key: String?, teamID: TeamID, value: String) async throws -> Bool

    func developer(id: String) async throws -> DeveloperAccount?
    func developer(email: String) async throws -> DeveloperAccount?
    /// The developers who belong to the team.
    func developers(teamID: TeamID) async throws -> [DeveloperAccount]
    /// Inserts or replaces; the e-mail address is unique.
    func save(_ developer: DeveloperAccount) async throws
    func save(_ session: ConsoleSession) async throws
    func consoleSession(idHash: String) async throws -> ConsoleSession?
    func deleteConsoleSession(idHash: String) async throws
    /// Deletes the developer's sessions except the one whose hash is `idHash`; returns how many.
    func deleteConsoleSessions(developerID: String, except idHash: String?) async throws -> Int

    /// Adds the invitation, replacing a pending one of the same team and e-mail, unless the team would
    /// then have more than `limit` invitations unexpired at `now`; returns whether it was added.
    func add(_ invitation: TeamInvitation, limit: Int, now: Date) async throws -> Bool
    func invitation(idHash: String) async throws -> TeamInvitation?
    /// The team's invitations unexpired at `now`, newest first.
    func invitations(teamID: TeamID, now: Date) async throws -> [TeamInvitation]
    /// Deletes the team's invitation of `email`; returns whether there was one.
    func deleteInvitation(teamID: TeamID, email: String) async throws -> Bool
    /// Uses up an invitation unexpired at `now` and grants its membership, in one transaction: with
    /// `registering`, that new account is inserted as the team's member (it must have the invitation's
    /// e-mail); without, the existing account of the invitation's e-mail gains the team. Answers the
    /// member, or `nil` (and changes nothing) when the invitation is gone or expired, or the account
    /// is not as expected. Of any number of concurrent callers, one redeems it.
    func redeemInvitation(idHash: String, now: Date, registering: DeveloperAccount?) async throws -> DeveloperAccount?
    /// Deletes the invitations that expired before `date`; returns how many.
    func purgeInvitations(expiredBefore date: Date) async throws -> Int

    /// Keeps the offer, replacing any earlier offer of the same group.
    func save(_ offer: TransferOffer) async throws
    /// Offers from or to the team unexpired at `now`, newest first.
    func transferOffers(involving teamID: TeamID, now: Date) async throws -> [TransferOffer]
    /// Removes and returns the group's offer to `toTeamID` (unexpired at `now`), atomically: of any
    /// number of callers, one gets it.
    func takeTransferOffer(groupID: ClientID, toTeamID: TeamID, now: Date) async throws -> TransferOffer?
    /// Deletes the group's offer from `fromTeamID`; returns whether there was one.
    func deleteTransferOffer(groupID: ClientID, fromTeamID: TeamID) async throws -> Bool
    /// Deletes the sessions that expired before `date`; returns how many.
    func purgeConsoleSessions(expiredBefore date: Date) async throws -> Int
}

/// A person who signs in to the console. Belongs to one or more teams.
public struct DeveloperAccount: Codable, Sendable, Hashable {
    public var id: String
    /// Lower-cased; the sign-in name.
    public var email: String
    public var name: String
    /// bcrypt.
    public var passwordHash: String
    public var teamIDs: [TeamID]

    public init(id: String, email: String, name: String, passwordHash: String, teamIDs: [TeamID]) {
        self.id = id
        self.email = email.lowercased()
        self.name = name
        self.passwordHash = passwordHash
        self.teamIDs = teamIDs
    }
}

/// A signed-in console browser. Only the cookie's hash is stored; the CSRF token is checked on every
/// form post.
public struct ConsoleSession: Codable, Sendable, Hashable {
    public var idHash: String
    public var developerID: String
    /// The team the developer is working in (one of theirs).
    public var teamID: TeamID
    public var csrfToken: String
    public var expiresAt: Date

    public init(idHash: String, developerID: String, teamID: TeamID, csrfToken: String, expiresAt: Date) {
        self.idHash = idHash
        self.developerID = developerID
        self.teamID = teamID
        self.csrfToken = csrfToken
        self.expiresAt = expiresAt
    }
}

/// A domain or address registered to send mail to the team's private relay addresses (spec §11).
public struct EmailSource: Codable, Sendable, Hashable {
    /// The SPF check of the source's domain (see ``AppleIDProvider/checkEmailSources(teamID:)``).
    public enum Check: String, Codable, Sendable, Hashable {
        /// Added and not looked up yet.
        case notChecked = "not-checked"
        /// The domain publishes one SPF record.
        case verified
        /// The domain has no SPF record, or does not exist.
        case spfMissing = "spf-missing"
        /// The domain publishes several SPF records, which RFC 7208 §4.5 makes a permanent error.
        case spfInvalid = "spf-invalid"
        /// The resolver gave no usable answer (timeout, server failure).
        case lookupFailed = "lookup-failed"
    }

    public var teamID: TeamID
    /// A domain name or an e-mail address, lower-cased.
    public var value: String
    public var addedAt: Date
    public var check: Check
    /// When ``check`` was found; `nil` until the first check.
    public var checkedAt: Date?
    /// The DKIM public key registered with the source (an RSA SubjectPublicKeyInfo, base64, as the
    /// `p=` of its DNS record): when set, the relay takes its mail only with a DKIM signature that
    /// verifies with it. `nil`: DKIM is not checked (the default).
    public var dkimPublicKey: String?

    public init(
        teamID: TeamID, value: String, addedAt: Date, check: Check = .notChecked, checkedAt: Date? = nil, dkimPublicKey: String? = nil
    ) {
        self.teamID = teamID
        self.value = value
        self.addedAt = addedAt
        self.check = check
        self.checkedAt = checkedAt
        self.dkimPublicKey = dkimPublicKey
    }

    public var isAddress: Bool { value.contains("@") }
}
