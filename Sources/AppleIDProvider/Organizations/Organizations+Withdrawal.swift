import AppleIDProtocol
import Foundation

extension Organizations {
    /// Withdrawals handled per pass; the rest wait for the next one.
    static let withdrawalsPerPass = 20

    /// Runs the withdrawals that are due: every grant of an organization's accounts to an app the
    /// organization no longer allows is revoked, its consent forgotten, and the app group gets
    /// `consent-revoked` for each user (spec §21 item 9, Apple's "background notification … to
    /// request automatic sign-out"). Part of the notification delivery pass, so the messages go out
    /// in the same pass. Answers how many consents were revoked.
    @discardableResult
    public func revokeWithdrawnApps() async throws -> Int {
        let now = provider.clock.now()
        var revoked = 0
        for withdrawal in try await provider.store.dueWithdrawals(at: now, limit: Self.withdrawalsPerPass) {
            // A deleted organization would leave nothing to revoke: its accounts have none of its rules.
            let organization = try await provider.store.organization(id: withdrawal.organizationID)
            var revocations: [ConsentKey] = []
            var messages: [OutboxMessage] = []
            for account in try await provider.store.accounts(organizationID: withdrawal.organizationID) where account.deletedAt == nil {
                for consent in try await provider.store.consents(accountID: account.id) where organization?.allows(consent.groupID) == false {
                    revocations.append(ConsentKey(accountID: account.id, groupID: consent.groupID))
                    guard let group = try await provider.store.appGroup(consent.groupID),
                        let identity = try await provider.store.teamIdentity(accountID: account.id, teamID: group.teamID)
                    else { continue }
                    messages.append(provider.lifecycle.message(.consentRevoked, group: group, subject: identity.subject, at: now))
                }
            }
            try await provider.store.complete(withdrawal, revoking: revocations, at: now, notifying: messages)
            revoked += revocations.count
        }
        if revoked > 0 { provider.credentialSignal.signal() }
        return revoked
    }
}
