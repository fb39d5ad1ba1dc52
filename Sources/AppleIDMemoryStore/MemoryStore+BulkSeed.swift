import AppleIDProvider
import Foundation

extension MemoryStore: BulkSeedStore {
    public func insert(_ batch: ScaleSeed.Batch) async throws {
        state.withLock { state in
            for account in batch.accounts { state.accounts[account.id] = account }
            for identity in batch.identities { state.identities[Self.pair(identity.accountID, identity.teamID.rawValue)] = identity }
            for consent in batch.consents { state.consents[Self.pair(consent.accountID, consent.groupID.rawValue)] = consent }
            for grant in batch.grants { state.grants[grant.id] = grant }
            for token in batch.tokens { state.tokens[token.tokenHash] = token }
        }
    }
}
