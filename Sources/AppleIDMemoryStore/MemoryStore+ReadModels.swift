import AppleIDProtocol
import AppleIDProvider
import Foundation

extension MemoryStore: ReadModelStore {
    public func activeAccount(id: String) async throws -> AppleIDAccount? {
        try await account(id: id).flatMap { $0.canSignIn ? $0 : nil }
    }

    public func activeAccount(appleID: String) async throws -> AppleIDAccount? {
        try await account(appleID: appleID).flatMap { $0.canSignIn ? $0 : nil }
    }

    public func accountOverview(accountID: String) async throws -> AccountOverview {
        state.withLock { state in
            AccountOverview(
                apps: state.consents.values.filter { $0.accountID == accountID }.sorted { $0.grantedAt < $1.grantedAt }
                    .map { AccountOverview.App(consent: $0, name: state.groups[$0.groupID]?.displayName) },
                identities: state.identities.values.filter { $0.accountID == accountID }.sorted { $0.teamID < $1.teamID }
                    .map { AccountOverview.Identity(identity: $0, teamName: state.teams[$0.teamID]?.name) })
        }
    }

    public func accountListings() async throws -> [AccountListing] {
        let accounts = try await accounts()
        return state.withLock { state in
            let identities = Dictionary(grouping: state.identities.values, by: \.accountID)
            return accounts.map { AccountListing(account: $0, identities: (identities[$0.id] ?? []).sorted { $0.teamID < $1.teamID }) }
        }
    }

    public func deliveryLog(groupID: ClientID?, limit: Int) async throws -> [DeliveryLogEntry] {
        let messages = try await messages(groupID: groupID, limit: limit)
        return state.withLock { state in messages.map { DeliveryLogEntry(message: $0, attempts: state.attempts[$0.id] ?? []) } }
    }

    public func deliveryLog(groupIDs: [ClientID], limitPerGroup: Int) async throws -> [DeliveryLogEntry] {
        let wanted = Set(groupIDs)
        return state.withLock { state in
            Dictionary(grouping: state.outbox.values.filter { wanted.contains($0.groupID) }, by: \.groupID).values
                .flatMap { $0.sorted { $0.createdAt > $1.createdAt }.prefix(limitPerGroup) }
                .sorted { $0.createdAt > $1.createdAt }
                .map { DeliveryLogEntry(message: $0, attempts: state.attempts[$0.id] ?? []) }
        }
    }

    public func pendingMessageCount() async throws -> Int { state.withLock { $0.outbox.values.count(where: \.isPending) } }

    public func save(_ account: AppleIDAccount, clearingSignInAttempts: Bool) async throws {
        try state.withLock { state in
            if let other = state.accounts.values.first(where: { $0.appleID == account.appleID && $0.id != account.id }) {
                throw StoreError.conflict("Apple ID \(other.appleID) already exists")
            }
            state.accounts[account.id] = account
            if clearingSignInAttempts {
                state.signInAttempts[account.id]?.attempts = 0
                state.signInAttempts[account.id]?.lockedUntil = nil
            }
        }
    }
}
