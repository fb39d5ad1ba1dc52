import Foundation

extension AppleIDProvider {
    /// How long a code is kept past its expiry: a replay within it is still recognised as one (and
    /// revokes what the code issued) rather than answered as an unknown code. A day: replays come from
    /// retried requests, queues and restarted jobs, within hours of the first redemption, so a day covers
    /// them with margin while the table of spent codes stays small.
    public static let expiredCodeRetention: TimeInterval = 86_400

    /// Deletes expired codes, access tokens, interactions, browser and console sessions, team
    /// invitations, the relay's refusals older than the console's traffic window (nobody sees
    /// them any more) and relayed mail older than its retention; answers how many rows went.
    public func purgeExpiredRecords() async throws -> Int {
        let now = clock.now()
        return try await store.purgeExpired(now: now, codesExpiredBefore: now.addingTimeInterval(-Self.expiredCodeRetention))
            + store.purgeConsoleSessions(expiredBefore: now)
            + store.purgeInvitations(expiredBefore: now)
            + store.purgeRelayRefusals(before: now.addingTimeInterval(-MailRelay.trafficWindow))
            + store.purgeRelayMail(receivedBefore: now.addingTimeInterval(-configuration.relay.retention))
    }
}
