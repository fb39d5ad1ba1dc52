import AppleIDProtocol
import AppleIDProvider
import Foundation
import Synchronization

/// The in-memory ``ProviderStore``: for tests and for `AppleIDEmulator`. One lock guards all state,
/// which makes every operation, code consumption included, atomic.
public final class MemoryStore: Sendable {
    struct State {
        var teams: [TeamID: DeveloperTeam] = [:]
        var groups: [ClientID: AppGroup] = [:]
        var clients: [ClientID: RegisteredClient] = [:]
        var keys: [KeyID: DeveloperKey] = [:]
        var accounts: [String: AppleIDAccount] = [:]
        var identities: [String: TeamIdentity] = [:]
        var consents: [String: Consent] = [:]
        var grants: [String: Grant] = [:]
        var codes: [String: AuthorizationCodeRecord] = [:]
        var tokens: [String: TokenRecord] = [:]
        var interactions: [String: Interaction] = [:]
        var sessions: [String: BrowserSession] = [:]
        var signingKeys: [SigningKeyID: SigningKeyRecord] = [:]
        var outbox: [String: OutboxMessage] = [:]
        var attempts: [String: [DeliveryAttempt]] = [:]
        var transfers: [String: AppTransfer] = [:]
        var transferSubjects: [String: TransferSubject] = [:]
        var migrationTokens: [String: MigrationToken] = [:]
        var signInAttempts: [String: SignInAttemptRecord] = [:]
        var teamRecords = TeamRecordsState()
        var outboxLeases: [String: OutboxLease] = [:]
        var flowRecords: [String: FlowRecord] = [:]
        var organizations: [UUID: Organization] = [:]
        var withdrawals: [UUID: PendingWithdrawal] = [:]
        /// The passes handling pending withdrawals (same shape as the outbox's leases).
        var withdrawalLeases: [UUID: OutboxLease] = [:]
        /// What modules above the engine keep here (the relay's mail), by type (``withAttached(_:_:)``).
        var attached: [ObjectIdentifier: any Sendable] = [:]
        /// Saved passwords by account, domain and user name (``KeychainStore``).
        var keychain: [String: KeychainPassword] = [:]
    }

    let state = Mutex(State())
    /// The seeded state ``SeedSnapshotStore/restoreSeedSnapshot()`` returns to.
    let seedSnapshot = Mutex<State?>(nil)

    public init() {}

    static func pair(_ a: String, _ b: String) -> String { a + "\u{1F}" + b }
}

extension MemoryStore: RegistryStore {
    public func team(_ id: TeamID) async throws -> DeveloperTeam? { state.withLock { $0.teams[id] } }
    public func teams() async throws -> [DeveloperTeam] { state.withLock { $0.teams.values.sorted { $0.id.rawValue < $1.id.rawValue } } }
    public func save(_ team: DeveloperTeam) async throws { state.withLock { $0.teams[team.id] = team } }
    public func appGroup(_ id: ClientID) async throws -> AppGroup? { state.withLock { $0.groups[id] } }
    public func save(_ group: AppGroup) async throws { state.withLock { $0.groups[group.primaryAppID] = group } }
    public func client(_ id: ClientID) async throws -> RegisteredClient? { state.withLock { $0.clients[id] } }
    public func save(_ client: RegisteredClient) async throws { state.withLock { $0.clients[client.id] = client } }
    public func developerKey(_ id: KeyID) async throws -> DeveloperKey? { state.withLock { $0.keys[id] } }
    public func save(_ key: DeveloperKey) async throws { state.withLock { $0.keys[key.id] = key } }
}

extension MemoryStore: AccountStore {
    public func account(id: String) async throws -> AppleIDAccount? { state.withLock { $0.accounts[id] } }

    public func teamIdentity(relayAddress: String) async throws -> TeamIdentity? {
        state.withLock { $0.identities.values.first { $0.relayAddress == relayAddress } }
    }

    public func account(appleID: String) async throws -> AppleIDAccount? {
        let login = appleID.lowercased()
        return state.withLock { $0.accounts.values.first { $0.appleID == login } }
    }

    public func accounts() async throws -> [AppleIDAccount] {
        state.withLock { $0.accounts.values.sorted { ($0.createdAt, $0.appleID) < ($1.createdAt, $1.appleID) } }
    }

    public func save(_ account: AppleIDAccount) async throws {
        try state.withLock { state in
            if let other = state.accounts.values.first(where: { $0.appleID == account.appleID && $0.id != account.id }) {
                throw StoreError.conflict("Apple ID \(other.appleID) already exists")
            }
            state.accounts[account.id] = account
        }
    }

    public func teamIdentity(accountID: String, teamID: TeamID) async throws -> TeamIdentity? {
        state.withLock { $0.identities[Self.pair(accountID, teamID.rawValue)] }
    }

    public func teamIdentity(subject: Subject, teamID: TeamID) async throws -> TeamIdentity? {
        state.withLock { $0.identities.values.first { $0.subject == subject && $0.teamID == teamID } }
    }

    public func insertTeamIdentity(_ identity: TeamIdentity) async throws -> TeamIdentity {
        state.withLock { state in
            let key = Self.pair(identity.accountID, identity.teamID.rawValue)
            if let existing = state.identities[key] { return existing }
            state.identities[key] = identity
            return identity
        }
    }

    public func save(_ identity: TeamIdentity) async throws {
        state.withLock { $0.identities[Self.pair(identity.accountID, identity.teamID.rawValue)] = identity }
    }
}

extension MemoryStore: ConsentStore {
    public func consent(accountID: String, groupID: ClientID) async throws -> Consent? {
        state.withLock { $0.consents[Self.pair(accountID, groupID.rawValue)] }
    }

    public func save(_ consent: Consent) async throws {
        state.withLock { $0.consents[Self.pair(consent.accountID, consent.groupID.rawValue)] = consent }
    }

    public func deleteConsent(accountID: String, groupID: ClientID) async throws {
        _ = state.withLock { $0.consents.removeValue(forKey: Self.pair(accountID, groupID.rawValue)) }
    }
}

extension MemoryStore: GrantStore {
    public func save(_ grant: Grant) async throws { state.withLock { $0.grants[grant.id] = grant } }

    public func save(_ approval: Approval) async throws {
        state.withLock { state in
            if let identity = approval.identity { state.identities[Self.pair(identity.accountID, identity.teamID.rawValue)] = identity }
            if let consent = approval.consent { state.consents[Self.pair(consent.accountID, consent.groupID.rawValue)] = consent }
            state.grants[approval.grant.id] = approval.grant
            state.codes[approval.code.codeHash] = approval.code
        }
    }

    public func grant(id: String) async throws -> Grant? { state.withLock { $0.grants[id] } }

    public func revokeGrants(accountID: String, groupID: ClientID, at date: Date) async throws -> Int {
        state.withLock { state in
            let ids = state.grants.values
                .filter { $0.accountID == accountID && $0.groupID == groupID && $0.revokedAt == nil }
                .map(\.id)
            for id in ids { state.grants[id]?.revokedAt = date }
            return ids.count
        }
    }

    public func revokeGrant(id: String, at date: Date) async throws {
        state.withLock { state in
            if state.grants[id]?.revokedAt == nil { state.grants[id]?.revokedAt = date }
        }
    }

    public func save(_ code: AuthorizationCodeRecord) async throws { state.withLock { $0.codes[code.codeHash] = code } }

    public func authorizationCode(hash: String) async throws -> AuthorizationCodeRecord? { state.withLock { $0.codes[hash] } }

    public func redeemCode(
        hash: String, binding: CodeBinding, at date: Date, validAt: Date, issuing tokens: [NewToken]
    ) async throws -> RedeemedCode? {
        try state.withLock { state in
            guard var code = state.codes[hash], code.consumedAt == nil, binding.matches(code), code.expiresAt > validAt,
                let grant = state.grants[code.grantID], grant.revokedAt == nil
            else { return nil }
            // Checked before anything changes, so a refused insert leaves the code unconsumed.
            try state.insert(tokens.map { $0.record(under: grant) })
            code.consumedAt = date
            state.codes[hash] = code
            return RedeemedCode(code: code, grant: grant)
        }
    }

    public func insert(_ tokens: [TokenRecord]) async throws {
        try state.withLock { try $0.insert(tokens) }
    }
    public func token(hash: String) async throws -> TokenRecord? { state.withLock { $0.tokens[hash] } }
}

extension MemoryStore: InteractionStore {
    public func save(_ interaction: Interaction) async throws { state.withLock { $0.interactions[interaction.id] = interaction } }
    public func interaction(id: String) async throws -> Interaction? { state.withLock { $0.interactions[id] } }
    public func deleteInteraction(id: String) async throws { _ = state.withLock { $0.interactions.removeValue(forKey: id) } }
    public func takeInteraction(id: String) async throws -> Interaction? { state.withLock { $0.interactions.removeValue(forKey: id) } }
    public func recordFailedAttempt(interactionID: String) async throws -> Int? {
        state.withLock { state in
            guard state.interactions[interactionID] != nil else { return nil }
            state.interactions[interactionID]?.failedAttempts += 1
            return state.interactions[interactionID]?.failedAttempts
        }
    }
    public func save(_ session: BrowserSession) async throws { state.withLock { $0.sessions[session.idHash] = session } }
    public func browserSession(idHash: String) async throws -> BrowserSession? { state.withLock { $0.sessions[idHash] } }
    public func deleteBrowserSession(idHash: String) async throws { _ = state.withLock { $0.sessions.removeValue(forKey: idHash) } }
}

extension MemoryStore: SigningKeyStore {
    public func signingKeys() async throws -> [SigningKeyRecord] {
        state.withLock { $0.signingKeys.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) } }
    }

    public func save(_ key: SigningKeyRecord) async throws { state.withLock { $0.signingKeys[key.id] = key } }
}

extension MemoryStore.State {
    /// Inserts all of `tokens` or, when a hash is stored already (or twice among them), none: as the
    /// SQL stores' primary key refuses it.
    mutating func insert(_ tokens: [TokenRecord]) throws {
        let hashes = Set(tokens.map(\.tokenHash))
        guard hashes.count == tokens.count, hashes.allSatisfy({ self.tokens[$0] == nil }) else {
            throw StoreError.conflict("a token with this hash is stored already")
        }
        for token in tokens { self.tokens[token.tokenHash] = token }
    }
}
