import AppleIDProtocol
import Foundation

/// The developer registry: teams, app groups, clients and Sign in with Apple keys.
public protocol RegistryStore: Sendable {
    func team(_ id: TeamID) async throws -> DeveloperTeam?
    /// Every team, by Team ID.
    func teams() async throws -> [DeveloperTeam]
    func save(_ team: DeveloperTeam) async throws
    func appGroup(_ id: ClientID) async throws -> AppGroup?
    func save(_ group: AppGroup) async throws
    func client(_ id: ClientID) async throws -> RegisteredClient?
    func save(_ client: RegisteredClient) async throws
    func developerKey(_ id: KeyID) async throws -> DeveloperKey?
    func save(_ key: DeveloperKey) async throws
}

/// Apple IDs and their team-scoped identities.
public protocol AccountStore: Sendable {
    func account(id: String) async throws -> AppleIDAccount?
    func account(appleID: String) async throws -> AppleIDAccount?
    func accounts() async throws -> [AppleIDAccount]
    /// Inserts or replaces; the Apple ID (login) is unique.
    func save(_ account: AppleIDAccount) async throws
    func teamIdentity(accountID: String, teamID: TeamID) async throws -> TeamIdentity?
    /// The identity a team knows by `subject`.
    func teamIdentity(subject: Subject, teamID: TeamID) async throws -> TeamIdentity?
    /// The team identity whose relay address is `relayAddress` (lower-case).
    func teamIdentity(relayAddress: String) async throws -> TeamIdentity?
    /// Inserts the identity unless one exists for the account and team; returns the stored one,
    /// so two racing first sign-ins agree on one `sub`.
    func insertTeamIdentity(_ identity: TeamIdentity) async throws -> TeamIdentity
    func save(_ identity: TeamIdentity) async throws
}

/// Consents per user and app group.
public protocol ConsentStore: Sendable {
    func consent(accountID: String, groupID: ClientID) async throws -> Consent?
    func save(_ consent: Consent) async throws
    func deleteConsent(accountID: String, groupID: ClientID) async throws
}

/// Grants, authorization codes, access and refresh tokens.
public protocol GrantStore: Sendable {
    func save(_ grant: Grant) async throws
    /// Writes the approval's consent, identity, grant and code in one transaction.
    func save(_ approval: Approval) async throws
    func grant(id: String) async throws -> Grant?
    /// Marks every live grant of the user for the group revoked; returns how many.
    @discardableResult
    func revokeGrants(accountID: String, groupID: ClientID, at date: Date) async throws -> Int
    func revokeGrant(id: String, at date: Date) async throws
    func save(_ code: AuthorizationCodeRecord) async throws
    /// The code as issued, consumed or not (read before consuming, to check what it is bound to).
    func authorizationCode(hash: String) async throws -> AuthorizationCodeRecord?
    /// The exchange's one redemption step, atomic: consumes the code at `date` only if it is
    /// unconsumed, bound to `binding`, unexpired at `validAt` and its grant is not revoked, stores
    /// `tokens` under that grant, and returns the code with the grant. `nil` when any of that does
    /// not hold; nothing changed then, and the caller reads the code
    /// (``authorizationCode(hash:)``) to learn which. When storing the tokens fails, the code is not
    /// consumed either. Of any number of concurrent callers at most one gets the code.
    func redeemCode(hash: String, binding: CodeBinding, at date: Date, validAt: Date, issuing tokens: [NewToken]) async throws -> RedeemedCode?
    /// Inserts new tokens: one statement. A hash that is stored already is refused (the SQL stores'
    /// primary key), and nothing is inserted then.
    func insert(_ tokens: [TokenRecord]) async throws
    func token(hash: String) async throws -> TokenRecord?
}

/// Sign-in interactions in progress and browser sessions of signed-in Apple IDs.
public protocol InteractionStore: Sendable {
    func save(_ interaction: Interaction) async throws
    func interaction(id: String) async throws -> Interaction?
    func deleteInteraction(id: String) async throws
    /// Deletes the interaction and returns it, atomically: of concurrent callers exactly one gets it
    /// (so one consent page approved twice at once issues one code). `nil` when it is gone.
    func takeInteraction(id: String) async throws -> Interaction?
    /// Counts one more failed step of the interaction, atomically; returns the new count, or `nil`
    /// when the interaction is gone. Concurrent wrong guesses each count.
    func recordFailedAttempt(interactionID: String) async throws -> Int?
    func save(_ session: BrowserSession) async throws
    func browserSession(idHash: String) async throws -> BrowserSession?
    func deleteBrowserSession(idHash: String) async throws
}

/// The provider's signing keys.
public protocol SigningKeyStore: Sendable {
    func signingKeys() async throws -> [SigningKeyRecord]
    func save(_ key: SigningKeyRecord) async throws
}

/// Everything the provider stores. The memory store and the SQL stores implement all of it and
/// pass one conformance suite.
public typealias ProviderStore = RegistryStore & AccountStore & ConsentStore & GrantStore & InteractionStore & SigningKeyStore
    & OutboxStore & LifecycleStore & ExpiredRecordStore & TransferStore & SignInAttemptStore
    & TeamRegistryStore & IdentifierRemovalStore & TeamActivityStore & SigningKeyRotationStore & OutboxLeaseStore
    & FlowRecordStore & ReadModelStore
    & OrganizationStore & KeychainStore & SeedSnapshotStore

/// A storage failure that is not the caller's fault to retry blindly.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    case conflict(String)

    public var description: String {
        switch self {
        case .conflict(let what): "conflict: \(what)"
        }
    }
}

/// The notification outbox and its delivery log.
public protocol OutboxStore: Sendable {
    /// Pending messages due at `now`, oldest first.
    func dueMessages(at now: Date, limit: Int) async throws -> [OutboxMessage]
    func message(id: String) async throws -> OutboxMessage?
    /// Adds a message that reports no state change of its own (the console's test notification).
    func enqueue(_ message: OutboxMessage) async throws
    func messages(groupID: ClientID?, limit: Int) async throws -> [OutboxMessage]
    /// Records an attempt and the message's new state in one step.
    func record(_ attempt: DeliveryAttempt, updating message: OutboxMessage) async throws
    func attempts(messageID: String) async throws -> [DeliveryAttempt]
    /// The group's messages after `cursor` in (creation time, id) order, oldest first.
    func messages(groupID: ClientID, after cursor: OutboxCursor?, limit: Int) async throws -> [OutboxMessage]
    /// How many of the group's messages are pending, and how many were created at or after `date`.
    func outboxUsage(groupID: ClientID, createdSince date: Date) async throws -> OutboxUsage
}

/// The account-lifecycle changes that users make, each applied together with the notifications it
/// causes: both happen or neither does (one transaction in the SQL stores).
public protocol LifecycleStore: Sendable {
    /// Every consent of the account (the apps using its Apple ID).
    func consents(accountID: String) async throws -> [Consent]
    /// Every team identity of the account (its `sub` and relay address per team).
    func teamIdentities(accountID: String) async throws -> [TeamIdentity]
    /// Revokes the user's grants of the group and forgets the consent ("Stop using Apple ID").
    func stopUsing(accountID: String, groupID: ClientID, at date: Date, notifying messages: [OutboxMessage]) async throws
    /// Turns relay forwarding for the team identity on or off.
    func setRelayForwarding(_ identity: TeamIdentity, enabled: Bool, notifying messages: [OutboxMessage]) async throws
    /// Deletes the Apple ID: marks it deleted, revokes every grant, forgets every consent, turns off
    /// every relay address, empties its keychain.
    func deleteAccount(id: String, at date: Date, notifying messages: [OutboxMessage]) async throws
}

/// Removal of records nobody can use any more.
public protocol ExpiredRecordStore: Sendable {
    /// Deletes authorization codes that expired before `codesExpiredBefore` (kept past their expiry
    /// so that a late replay is still recognised and revokes what the code issued), access tokens,
    /// interactions, browser sessions and flow records expired before `now`. Returns how many rows went.
    @discardableResult
    func purgeExpired(now: Date, codesExpiredBefore: Date) async throws -> Int
}

/// App transfers between teams and user migration (spec §17.4).
public protocol TransferStore: Sendable {
    /// The group's transfers, newest first.
    func transfers(groupID: ClientID) async throws -> [AppTransfer]
    /// The clients of an app group: its primary App ID and Services IDs.
    func clients(groupID: ClientID) async throws -> [RegisteredClient]
    /// Every user's consent for the group.
    func consents(groupID: ClientID) async throws -> [Consent]
    func transferSubject(accountID: String, fromTeamID: TeamID, toTeamID: TeamID) async throws -> TransferSubject?
    func transferSubject(_ subject: Subject, toTeamID: TeamID) async throws -> TransferSubject?
    /// Moves the group and its clients, revokes every live grant of the group (tokens issued to the
    /// sending team), rewrites the consents, records the transfer identifiers and the transfer: all
    /// or nothing.
    func apply(_ plan: TransferPlan) async throws
    func save(_ token: MigrationToken) async throws
    func migrationToken(hash: String) async throws -> MigrationToken?
}

/// The database cannot answer now: it is unreachable, or every pooled connection stayed busy for
/// longer than the store waits. Nothing was written by the failed call. Callers answer `503` with
/// `Retry-After`: the condition is expected to pass (a database restart, a burst of load).
public struct StoreUnavailableError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, for the log: never SQL, never a bound value.
    public var reason: String
    /// How long a client should wait before it tries again.
    public var retryAfterSeconds: Int

    public init(reason: String, retryAfterSeconds: Int = StoreUnavailableError.defaultRetryAfterSeconds) {
        self.reason = reason
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// A database restart takes a few seconds; load bursts pass sooner.
    public static let defaultRetryAfterSeconds = 2

    public var description: String { "the database is unavailable: \(reason)" }
}
