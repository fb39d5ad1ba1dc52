import AppleIDProtocol
import Foundation

extension AppleIDProvider {
    /// Withdrawals handled per pass; the rest wait for the next one.
    static let withdrawalsPerPass = 20
    /// How long a pass holds the withdrawals it claimed. Other instances leave them alone until then
    /// and take them over after (this instance died or hangs); a pass that outlives its claim writes
    /// nothing, since the store completes a withdrawal only for its holder.
    static let withdrawalClaim: TimeInterval = 120

    /// Runs the withdrawals that are due: every grant of an organization's accounts to an app the
    /// organization no longer allows is revoked, its consent forgotten, and the app group gets
    /// `consent-revoked` for each user (spec §21 item 9, Apple's "background notification … to
    /// request automatic sign-out"). Part of the notification delivery pass, so the messages go out
    /// in the same pass. Answers how many consents were revoked.
    ///
    /// With several instances on one database each withdrawal is claimed by one pass at a time, so
    /// each user is told once. A withdrawal costs the same statements for one member as for many: one
    /// read of the affected consents (with the users' `sub`s) and one transaction.
    @discardableResult
    public func revokeWithdrawnApps() async throws -> Int {
        let now = clock.now()
        // One holder per pass, not per instance: two overlapping passes of one instance must not
        // both take a withdrawal.
        let holder = "withdrawal-pass-" + random.hex(bytes: 8)
        let claimed = try await store.claimDueWithdrawals(
            at: now, holder: holder, until: now.addingTimeInterval(Self.withdrawalClaim), limit: Self.withdrawalsPerPass)
        var revoked = 0
        for withdrawal in claimed {
            // Under all apps, or with the organization gone, nothing is withdrawn any more.
            let organization = try await store.organization(id: withdrawal.organizationID)
            let kept = organization?.accessRule == .specificApps ? organization?.allowedApps : nil
            var consents: [OrganizationConsent] = []
            if let kept { consents = try await store.consents(organizationID: withdrawal.organizationID, outside: kept) }
            let messages = consents.compactMap { consent in
                consent.subject.map { lifecycle.message(.consentRevoked, groupID: consent.groupID, subject: $0, at: now) }
            }
            let completed = try await store.complete(withdrawal, holder: holder, revokingOutside: kept, at: now, notifying: messages)
            if completed { revoked += consents.count }
        }
        if revoked > 0 { credentialSignal.signal() }
        return revoked
    }
}
